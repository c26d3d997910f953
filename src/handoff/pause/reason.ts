/** Why a conversation was handed to a person: stored with the pause, written in the e-mail. */
export type HandoffReason =
  | { kind: 'command' }
  | { kind: 'button' }
  | { kind: 'phrase'; phrase: string }
  | { kind: 'no-answer' }
  | { kind: 'upstream-failures'; failures: number };

export function describeReason(reason: HandoffReason): string {
  switch (reason.kind) {
    case 'command':
      return 'the user sent the /human command';
    case 'button':
      return 'the user pressed "Talk to a person" after the assistant had no answer';
    case 'phrase':
      return `the user wrote the handoff phrase "${reason.phrase}"`;
    case 'no-answer':
      return 'the assistant had no answer';
    case 'upstream-failures':
      return `${reason.failures} upstream failures in a row (the Chatbot Service did not answer)`;
  }
}
