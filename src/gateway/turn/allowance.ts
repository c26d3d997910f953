/** The shapes of a turn's allowance (allowance-step.ts checks it, turn/first-batch.ts reserves it); no imports, so both can use them. */

export interface RateWindow {
  count: number;
  windowMs: number;
}

/** The allowance taken at the turn's start: checked by the limits step, given back otherwise. */
export interface Reservation {
  monthlyKey: string;
  /** The month's count with this turn's reservation, when there is a cap; checked against it. */
  reserved: number;
  /**
   * MessageLimit. Only with one is the month's count reserved by the first batch; with none (null) an
   * answered message is counted afterwards, with others, once a second (stores/month-tally.ts).
   */
  cap: number | null;
  rate: RateWindow | null;
  rateKey: string;
  /** The user's messages in the window, this one included. */
  used: number;
  /** Set by the limits step: it checked the allowance and settles the month's reservation itself. */
  checked: boolean;
}
