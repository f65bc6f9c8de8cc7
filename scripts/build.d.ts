// Types of scripts/build.js for the tests that build into a folder of their own.
import type { Metafile } from 'esbuild';

export const EXTERNAL: string[];
export const ENTRY_POINTS: Record<'cli' | 'workbench', string>;
export function buildLadder(options?: { root?: string; outdir?: string; write?: boolean }): Promise<Metafile>;
