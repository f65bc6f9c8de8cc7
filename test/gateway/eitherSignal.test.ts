// The per-call signal the step gateway hands the lane: it follows the request's and the step's.
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { eitherSignal } from '../../src/gateway/mcp/step.ts';

describe('eitherSignal', () => {
  it.each(['a', 'b'] as const)('aborts with the reason of %s when it aborts', (which) => {
    const a = new AbortController();
    const b = new AbortController();
    const { signal } = eitherSignal(a.signal, b.signal);
    expect(signal.aborted).toBe(false);
    (which === 'a' ? a : b).abort(`stopped by ${which}`);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(`stopped by ${which}`);
  });

  it('is aborted from the start when either already is', () => {
    const a = new AbortController();
    const b = new AbortController();
    b.abort('late');
    const { signal } = eitherSignal(a.signal, b.signal);
    expect(signal.reason).toBe('late');
  });

  it('leaves no listener behind once released, and follows neither after', () => {
    const a = new AbortController();
    const b = new AbortController();
    const { signal, release } = eitherSignal(a.signal, b.signal);
    expect(getEventListeners(a.signal, 'abort')).toHaveLength(1);
    release();
    expect(getEventListeners(a.signal, 'abort')).toHaveLength(0);
    expect(getEventListeners(b.signal, 'abort')).toHaveLength(0);
    a.abort();
    expect(signal.aborted).toBe(false);
  });
});
