/**
 * How long something took or has lasted, for a person, in the two largest units: "45s",
 * "3m 05s", "2h 07m", "3d 4h"; under a second "<1s". Negative spans (clocks apart) count as 0s.
 */
export function formatDuration(milliseconds: number): string {
  // A step that took a few hundred milliseconds did take time: "0s" read as not run at all.
  if (milliseconds > 0 && milliseconds < 1000) return '<1s';
  const total = Math.max(0, Math.floor(milliseconds / 1000));
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3_600);
  const minutes = Math.floor((total % 3_600) / 60);
  const seconds = total % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  if (days > 0) return `${days}d ${hours}h`;
  if (hours > 0) return `${hours}h ${pad(minutes)}m`;
  if (minutes > 0) return `${minutes}m ${pad(seconds)}s`;
  return `${seconds}s`;
}
