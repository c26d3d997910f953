/**
 * Who did an operator's action, as the handoff records it (a message, a note, a claim, a hand-back): the display name
 * they had at that moment, which the e-mails, the threads and older readers show; their operator account when they
 * have one, by which the inbox shows the name the account has now and tells two people of one name apart; and the
 * operators' platform they did it from, if any, so that a person no account names is shown as such.
 */

export interface OperatorSignature {
  /** Their display name at that moment. */
  name: string;
  /**
   * Their operator account's id (`op_…`); none for the admin token's sessions, a handoff e-mail's link, the admin API
   * and the people of an operators' platform whom no account names.
   */
  account?: string;
  /** The operators' platform of the door they acted from ("slack", "telegram"); none for the inbox and the admin API. */
  via?: string;
}

/** What a record keeps of a signature: the name as `operator`, the rest only when there is one (records stay small). */
export function signatureFields(signature: OperatorSignature): { operator: string; account?: string; via?: string } {
  return {
    operator: signature.name,
    ...(signature.account ? { account: signature.account } : {}),
    ...(signature.via ? { via: signature.via } : {}),
  };
}

/**
 * Whether two signatures are one person: by account when either has one (a name typed at the admin token's sign-in,
 * or a Slack user's name, is no proof of being the account's holder), else by name and platform (as before accounts).
 */
export function sameOperator(a: OperatorSignature, b: OperatorSignature): boolean {
  if (a.account !== undefined || b.account !== undefined) return a.account === b.account;
  return a.name === b.name && a.via === b.via;
}

/** The signature of a pause's claim (PauseRecord.claim), or null when nobody holds it. */
export function claimant(claim: { by: string; account?: string; via?: string } | undefined): OperatorSignature | null {
  return claim
    ? { name: claim.by, ...(claim.account ? { account: claim.account } : {}), ...(claim.via ? { via: claim.via } : {}) }
    : null;
}
