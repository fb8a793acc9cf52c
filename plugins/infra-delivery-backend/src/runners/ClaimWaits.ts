/** One held claim's wait: it ends once, woken (true) or not (false). */
class HeldClaim {
  private readonly timer: NodeJS.Timeout;
  private readonly onAbort = () => this.end(false);

  constructor(
    private readonly resolve: (woken: boolean) => void,
    private readonly release: (claim: HeldClaim) => void,
    ms: number,
    private readonly signal?: AbortSignal,
  ) {
    this.timer = setTimeout(this.onAbort, ms);
    signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  end(woken: boolean): void {
    clearTimeout(this.timer);
    this.signal?.removeEventListener('abort', this.onAbort);
    this.release(this);
    this.resolve(woken);
  }
}

/**
 * Runners' claims held open while their organization has no claimable step. The engine wakes
 * an organization's held claims when one of its runs may have queued a step for a runner; a
 * held claim also looks again on its own every few seconds, for steps another instance queued.
 * Closed (the plugin stops), every held claim ends at once and none waits again.
 */
export class ClaimWaits {
  private readonly waiting = new Map<string, Set<HeldClaim>>();
  private closed = false;

  /** Ends the held claims of the organization: one of its steps may be claimable. */
  wake(organizationId: string): void {
    for (const claim of this.waiting.get(organizationId) ?? []) {
      claim.end(true);
    }
  }

  /**
   * Resolves when the organization is woken, after `ms`, when `signal` aborts or when the
   * waits are closed; whichever comes first. True when woken.
   */
  wait(
    organizationId: string,
    ms: number,
    signal?: AbortSignal,
  ): Promise<boolean> {
    if (this.closed || signal?.aborted || ms <= 0) {
      return Promise.resolve(false);
    }
    let claims = this.waiting.get(organizationId);
    if (!claims) {
      claims = new Set();
      this.waiting.set(organizationId, claims);
    }
    const held = claims;
    return new Promise(resolve => {
      const release = (claim: HeldClaim) => {
        held.delete(claim);
        if (held.size === 0 && this.waiting.get(organizationId) === held) {
          this.waiting.delete(organizationId);
        }
      };
      held.add(new HeldClaim(resolve, release, ms, signal));
    });
  }

  /** True once closed: a claim stops holding. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Ends every held claim, and makes every later wait end at once. */
  close(): void {
    this.closed = true;
    for (const organizationId of [...this.waiting.keys()]) {
      this.wake(organizationId);
    }
  }
}
