#!/usr/bin/env node
// The `ladder` command. The sources are TypeScript run through tsx's loader, so there is
// no build step between a checkout and a run.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
