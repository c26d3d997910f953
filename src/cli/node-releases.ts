/**
 * The end of life of Node's release lines (Node's release schedule): after that date a line gets no more security
 * fixes, which a gateway holding bot tokens and users' messages must have. Even lines are LTS for 30 months; odd lines
 * last until the June after their release. A line older than the oldest here is past its end of life too.
 */
export const NODE_END_OF_LIFE: Readonly<Record<number, string>> = {
  18: '2025-04-30',
  19: '2023-06-01',
  20: '2026-04-30',
  21: '2024-06-01',
  22: '2027-04-30',
  23: '2025-06-01',
  24: '2028-04-30',
  25: '2026-06-01',
};

/** How long before a line's end of life doctor starts to warn: time to plan the move. */
const WARN_DAYS_BEFORE = 90;
const DAY_MS = 86_400_000;

export type NodeReleaseCheck = { status: 'ok' | 'warn'; detail: string };

/** Whether the Node of `version` (process.version: v24.21.0) still gets security fixes on `today`. */
export function checkNodeRelease(version: string, today: Date): NodeReleaseCheck {
  const major = Number(/^v?(\d+)\./.exec(version)?.[1]);
  const lines = Object.keys(NODE_END_OF_LIFE).map(Number);
  const newestLts = Math.max(...lines.filter((line) => line % 2 === 0));
  const move =
    newestLts > major
      ? `move to Node ${newestLts} (LTS, supported until ${NODE_END_OF_LIFE[newestLts]})`
      : 'move to a newer LTS line';
  const endOfLife = NODE_END_OF_LIFE[major];
  if (!endOfLife) {
    if (major < Math.min(...lines)) {
      return { status: 'warn', detail: `Node ${version} is past its end of life: no more security fixes; ${move}` };
    }
    return { status: 'ok', detail: `Node ${version}, a line newer than this build's table of end-of-life dates` };
  }
  const daysLeft = Math.ceil((Date.parse(`${endOfLife}T00:00:00Z`) - today.getTime()) / DAY_MS);
  if (daysLeft <= 0) {
    return {
      status: 'warn',
      detail: `Node ${version} is past its end of life (${endOfLife}): no more security fixes; ${move}`,
    };
  }
  if (daysLeft <= WARN_DAYS_BEFORE) {
    return {
      status: 'warn',
      detail: `Node ${version} reaches its end of life on ${endOfLife}, in ${daysLeft} day${daysLeft === 1 ? '' : 's'}; ${move}`,
    };
  }
  return { status: 'ok', detail: `Node ${version}, supported until ${endOfLife}` };
}
