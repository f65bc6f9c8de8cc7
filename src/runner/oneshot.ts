// One-shot mode sends a rung's steps as one prompt. The run builds it (src/runner/pass.ts) and
// rescore compares the prompt a run recorded with it (src/report/rescore.ts), so it is built once.

/** Every step's prompt in one, numbered from 1, a blank line between them. */
export const oneshotPrompt = (prompts: readonly string[]): string => prompts.map((prompt, i) => `Task ${i + 1}: ${prompt}`).join('\n\n');
