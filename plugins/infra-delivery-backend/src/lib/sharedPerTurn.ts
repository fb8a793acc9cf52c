/**
 * `read`, shared by the callers that ask in the same turn of the event loop: the first of
 * them starts a read that is sent once that turn is over, and every caller until then gets
 * its answer (optimization 24). Under 16 concurrent requests several arrive together, and each
 * paid a read of its own. The read starts after every caller that joined it had asked, so each
 * still sees every change committed before it asked.
 */
export function sharedPerTurn<T>(read: () => Promise<T>): () => Promise<T> {
  let gathering: Promise<T> | undefined;
  const readAfterThisTurn = async () => {
    await new Promise(resolve => setImmediate(resolve));
    // Whoever asks from now on may follow a change this read would not see.
    gathering = undefined;
    return read();
  };
  return () => {
    gathering ??= readAfterThisTurn();
    return gathering;
  };
}
