/**
 * Which SMTP failures are worth retrying. nodemailer puts the server's reply
 * code on the error as `responseCode`: 5xx is a permanent refusal (RFC 5321
 * §4.2.1; the same mail to the same address will be refused again), 4xx and
 * everything without a code (connection refused, timeouts, TLS) are transient.
 */

/** Lowest and highest SMTP reply codes that mean "permanent negative completion". */
const PERMANENT_MIN = 500;
const PERMANENT_MAX = 599;

export function smtpResponseCode(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('responseCode' in error)) return undefined;
  const code = (error as { responseCode: unknown }).responseCode;
  return typeof code === 'number' ? code : undefined;
}

export function isPermanentSmtpFailure(error: unknown): boolean {
  const code = smtpResponseCode(error);
  return code !== undefined && code >= PERMANENT_MIN && code <= PERMANENT_MAX;
}
