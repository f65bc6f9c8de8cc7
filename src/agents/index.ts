// External agents (exec and acp) behind one contract: the runner starts a session per pass,
// runs a step per prompt, and closes it. See docs/agent.md, "External agents: the agent file".
export { AgentFileError, agentFileSchema, loadAgentFile, parseAgentFile, recipeNames, RECIPES, type AgentAnswer, type AgentFile } from './file.ts';
export { PLACEHOLDERS, type AgentPassValues } from './placeholders.ts';
export { startAgentSession, type AgentSession, type AgentStepResult, type StepOptions } from './session.ts';
