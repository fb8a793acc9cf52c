import { useState } from 'react';

/**
 * One request a form sends: `submit` runs `send` (which sends it and says what came of it);
 * while it is under way `busy` is true, and a refusal is kept in `error` for the form to show.
 */
export function useSubmission(send: () => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error>();
  const submit = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await send();
    } catch (e) {
      setError(e as Error);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, submit };
}
