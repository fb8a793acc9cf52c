import { GuessBackoff } from '../auth/GuessBackoff';
import { AuthRateLimits, RateLimiter } from '../auth/RateLimiter';
import { BindOperation } from '../http/bindOperation';
import { PageCursors } from '../pagination/PageCursors';
import { Services } from '../services';

/** What every route module registers its operations with. */
export interface RouteContext {
  bind: BindOperation;
  services: Services;
  cursors: PageCursors;
  rateLimiter: RateLimiter;
  rateLimits: AuthRateLimits;
  /** Wrong passwords, per client address and account. */
  passwordGuesses: GuessBackoff;
}
