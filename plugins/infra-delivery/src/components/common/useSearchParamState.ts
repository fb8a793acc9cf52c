import { useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';

/**
 * A value kept in the page's query string (`?deployment=…`), so that a link can open what it
 * names and the browser's Back closes it again: setting a value adds a history entry, clearing
 * it replaces the current one.
 */
export function useSearchParamState(
  name: string,
): [string | undefined, (value?: string) => void] {
  const [params, setParams] = useSearchParams();
  const set = useCallback(
    (value?: string) =>
      setParams(
        current => {
          const next = new URLSearchParams(current);
          if (value) next.set(name, value);
          else next.delete(name);
          return next;
        },
        { replace: !value },
      ),
    [name, setParams],
  );
  return [params.get(name) ?? undefined, set];
}
