// A tool call's arguments as a provider's wire carries them: JSON text the model wrote.

/** A JSON object as `args`; anything else (broken JSON, an array) kept as the text the model wrote (ToolCall.rawArgs). */
export function parseToolArguments(text: string): { args: Record<string, unknown>; rawArgs?: string } {
  if (text.trim() === '') return { args: {} };
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return { args: value as Record<string, unknown> };
  } catch {
    // the model wrote broken JSON: its text goes on as it came, so the conversation can show it back
  }
  return { args: {}, rawArgs: text };
}
