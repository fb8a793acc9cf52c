import { useMemo, useState } from 'react';

/** What an action that creates something passes on to the service with its request. */
export interface AttemptKey {
  idempotencyKey: string;
}

/**
 * A fresh Idempotency-Key: a UUID where the browser makes one (`crypto.randomUUID` needs a
 * secure context: https or localhost), else 128 random bits in hex (a portal served over plain
 * http on an internal name).
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') {
    return crypto.randomUUID();
  }
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, byte => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The Idempotency-Key of one attempt at an action: the same while the person presses the button
 * again for the same thing (after an error, an answer lost with the connection), so the service
 * carries it out once; a new one for a new `request` (another note, another dialog opening).
 */
export function useAttemptKey(request: string): {
  idempotencyKey: string;
  renew: () => void;
} {
  const [opening, setOpening] = useState(0);
  const idempotencyKey = useMemo(
    () => newIdempotencyKey(),
    // A new key per opening and per request: the key itself is what the memo makes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [opening, request],
  );
  return { idempotencyKey, renew: () => setOpening(n => n + 1) };
}
