// The reliability layer: pure mechanisms, no I/O, no imports from the rest of src.
export * from './clock.ts';
export * from './types.ts';
export * from './callKey.ts';
export * from './turnBreaker.ts';
export * from './serverCircuit.ts';
export * from './repeats.ts';
export * from './boundedWait.ts';
export * from './naming.ts';
export * from './roster.ts';
