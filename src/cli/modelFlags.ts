// The model flags `ladder run` and `ladder doctor` share, as yargs options. No imports: the run
// command's builder loads this without the model SDKs.
export const MODEL_FLAG_OPTIONS = {
  'base-url': {
    type: 'string',
    describe: 'Provider endpoint: an OpenAI-compatible server with its /v1, the Ollama host, or the Anthropic API',
  },
  thinking: {
    type: 'string',
    describe: 'anthropic: off (default), on (adaptive) or a thinking budget in tokens (at least 1024); ollama: off (default) or on',
  },
  'num-ctx': { type: 'number', describe: 'ollama: context window in tokens (default 8192); a longer conversation fails the request, it is never cut' },
} as const;
