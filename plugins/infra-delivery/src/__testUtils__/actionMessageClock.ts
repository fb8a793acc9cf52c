import { UNDER_WAY_MESSAGE_MIN_MS } from '../components/common/ActionMessage';

/**
 * Moves `Date.now` past the time a message about work under way stands at least, so that the
 * next render lets it go once the work ended. Returns the restore function.
 */
export function afterUnderWayMessageMinimum(): () => void {
  const later = Date.now() + UNDER_WAY_MESSAGE_MIN_MS;
  const spy = jest.spyOn(Date, 'now').mockReturnValue(later);
  return () => spy.mockRestore();
}
