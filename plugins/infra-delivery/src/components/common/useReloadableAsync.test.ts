import { act, renderHook, waitFor } from '@testing-library/react';
import { useReloadableAsync } from './useReloadableAsync';

/** A load whose answers the test hands out, one per call, in any order. */
function controlledLoad() {
  const pending: ((value: string) => void)[] = [];
  const load = jest.fn(
    () => new Promise<string>(resolve => pending.push(resolve)),
  );
  return {
    load,
    answer: (call: number, value: string) => pending[call](value),
  };
}

describe('useReloadableAsync', () => {
  it('loads again when retried while a load is still in flight, and keeps the later answer', async () => {
    const { load, answer } = controlledLoad();
    const { result } = renderHook(() => useReloadableAsync(load, []));
    expect(result.current.loading).toBe(true);

    act(() => result.current.retry()); // e.g. a key was created meanwhile
    await waitFor(() => expect(load).toHaveBeenCalledTimes(2));

    await act(async () => answer(1, 'with the new key'));
    await act(async () => answer(0, 'before the key')); // the older load answers last
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(result.current.value).toBe('with the new key');
  });

  it('keeps the value while a reload runs', async () => {
    const { load, answer } = controlledLoad();
    const { result } = renderHook(() => useReloadableAsync(load, []));
    await act(async () => answer(0, 'first'));
    await waitFor(() => expect(result.current.value).toBe('first'));

    act(() => result.current.retry());
    expect(result.current.value).toBe('first');
    await waitFor(() => expect(load).toHaveBeenCalledTimes(2));
    await act(async () => answer(1, 'second'));
    await waitFor(() => expect(result.current.value).toBe('second'));
  });

  it('loads again when its dependencies change', async () => {
    const { load, answer } = controlledLoad();
    const { result, rerender } = renderHook(
      ({ id }) => useReloadableAsync(load, [id]),
      { initialProps: { id: 'a' } },
    );
    await act(async () => answer(0, 'a'));
    rerender({ id: 'b' });
    await waitFor(() => expect(load).toHaveBeenCalledTimes(2));
    await act(async () => answer(1, 'b'));
    await waitFor(() => expect(result.current.value).toBe('b'));
  });
});
