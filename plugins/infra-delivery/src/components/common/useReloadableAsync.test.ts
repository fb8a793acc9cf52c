import { act, renderHook, waitFor } from '@testing-library/react';
import { InfraDeliveryApiError } from '@infra-delivery/plugin-infra-delivery-common';
import { useReloadableAsync } from './useReloadableAsync';
import { IDLE_POLL_MS } from './useLivePolling';

/** A load whose answers the test hands out, one per call, in any order. */
function controlledLoad() {
  const pending: {
    resolve: (value: string) => void;
    reject: (error: Error) => void;
  }[] = [];
  const load = jest.fn(
    () =>
      new Promise<string>((resolve, reject) =>
        pending.push({ resolve, reject }),
      ),
  );
  return {
    load,
    answer: (call: number, value: string) => pending[call].resolve(value),
    /** The call fails as a fetch the service never answered fails in a browser. */
    unanswered: (call: number) =>
      pending[call].reject(
        Object.assign(new TypeError('Failed to fetch'), { name: 'TypeError' }),
      ),
    /** The call fails as the service's error answer (its ErrorBody) fails it. */
    failed: (call: number, status: number, message: string) =>
      pending[call].reject(
        new InfraDeliveryApiError(status, {
          code: `InfraDelivery:Test:STATUS_${status}`,
          message,
          requestId: `req-${call}`,
        }),
      ),
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

  it('keeps the value when a reload gets no answer, says since when, and reads again', async () => {
    const { load, answer, unanswered } = controlledLoad();
    const { result } = renderHook(() => useReloadableAsync(load, []));
    await act(async () => answer(0, 'first'));
    await waitFor(() => expect(result.current.silentSince).toBeUndefined());

    const sent = Date.now();
    act(() => result.current.retry());
    await waitFor(() => expect(load).toHaveBeenCalledTimes(2));
    await act(async () => unanswered(1));
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(result.current.value).toBe('first');
    expect(result.current.error).toBeUndefined();
    expect(result.current.silentSince).toBeGreaterThanOrEqual(sent);

    // Nothing announces the service's return: the load is tried again by itself.
    await waitFor(() => expect(load).toHaveBeenCalledTimes(3), {
      timeout: 7_000,
    });
    await act(async () => answer(2, 'second'));
    await waitFor(() => expect(result.current.value).toBe('second'));
    expect(result.current.silentSince).toBeUndefined();
  }, 10_000);

  it('shows the error of a first load that gets no answer: it has nothing to keep', async () => {
    const { load, unanswered } = controlledLoad();
    const { result } = renderHook(() => useReloadableAsync(load, []));
    await act(async () => unanswered(0));
    await waitFor(() =>
      expect(result.current.error?.message).toBe('Failed to fetch'),
    );
    expect(result.current.value).toBeUndefined();
  });

  it('does not keep what it read of something else for what it now reads', async () => {
    const { load, answer, unanswered } = controlledLoad();
    const { result, rerender } = renderHook(
      ({ id }) => useReloadableAsync(load, [id]),
      { initialProps: { id: 'a' } },
    );
    await act(async () => answer(0, 'a'));
    await waitFor(() => expect(result.current.value).toBe('a'));
    rerender({ id: 'b' });
    await waitFor(() => expect(load).toHaveBeenCalledTimes(2));
    await act(async () => unanswered(1));
    await waitFor(() =>
      expect(result.current.error?.message).toBe('Failed to fetch'),
    );
    expect(result.current.value).toBeUndefined();
  });

  it.each([403, 500, 502, 503])(
    'keeps the value when a reload is answered with a %i, says what went wrong and when the value was read, until an answer',
    async status => {
      const { load, answer, failed } = controlledLoad();
      const { result } = renderHook(() => useReloadableAsync(load, []));
      const before = Date.now();
      await act(async () => answer(0, 'first'));
      await waitFor(() => expect(result.current.value).toBe('first'));
      const readAt = Date.now();

      act(() => result.current.retry());
      await waitFor(() => expect(load).toHaveBeenCalledTimes(2));
      await act(async () => failed(1, status, 'The database is busy'));
      await waitFor(() => expect(result.current.loading).toBe(false));
      expect(result.current.value).toBe('first');
      expect(result.current.error).toBeUndefined();
      expect(result.current.reloadFailed?.error.message).toBe(
        'The database is busy',
      );
      expect(result.current.reloadFailed?.readAt).toBeGreaterThanOrEqual(
        before,
      );
      expect(result.current.reloadFailed?.readAt).toBeLessThanOrEqual(readAt);

      act(() => result.current.retry());
      await waitFor(() => expect(load).toHaveBeenCalledTimes(3));
      await act(async () => answer(2, 'second'));
      await waitFor(() => expect(result.current.value).toBe('second'));
      expect(result.current.reloadFailed).toBeUndefined();
    },
  );

  it('reads again by itself after a reload answered with an error', async () => {
    jest.useFakeTimers();
    try {
      const { load, answer, failed } = controlledLoad();
      const { result } = renderHook(() => useReloadableAsync(load, []));
      await act(async () => answer(0, 'first'));
      act(() => result.current.retry());
      await act(async () => failed(1, 500, 'Internal error'));
      expect(result.current.reloadFailed).toBeDefined();
      expect(load).toHaveBeenCalledTimes(2);
      await act(async () => {
        jest.advanceTimersByTime(IDLE_POLL_MS);
      });
      expect(load).toHaveBeenCalledTimes(3);
      await act(async () => answer(2, 'second'));
      expect(result.current.value).toBe('second');
      expect(result.current.reloadFailed).toBeUndefined();
    } finally {
      jest.useRealTimers();
    }
  });

  it('shows the error of a first load answered with an error: it has nothing to keep', async () => {
    const { load, failed } = controlledLoad();
    const { result } = renderHook(() => useReloadableAsync(load, []));
    await act(async () => failed(0, 500, 'Internal error'));
    await waitFor(() =>
      expect(result.current.error?.message).toBe('Internal error'),
    );
    expect(result.current.value).toBeUndefined();
    expect(result.current.reloadFailed).toBeUndefined();
  });

  it('does not keep what it read through a 404: what it reads is gone', async () => {
    const { load, answer, failed } = controlledLoad();
    const { result } = renderHook(() => useReloadableAsync(load, []));
    await act(async () => answer(0, 'the run'));
    await waitFor(() => expect(result.current.value).toBe('the run'));
    act(() => result.current.retry());
    await waitFor(() => expect(load).toHaveBeenCalledTimes(2));
    await act(async () => failed(1, 404, 'Pipeline run not found'));
    await waitFor(() =>
      expect(result.current.error?.message).toBe('Pipeline run not found'),
    );
    expect(result.current.value).toBeUndefined();
    expect(result.current.reloadFailed).toBeUndefined();
  });
});
