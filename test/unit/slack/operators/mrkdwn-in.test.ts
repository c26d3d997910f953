/** What an operator writes in Slack (mrkdwn) as the standard Markdown the handoff sends to the user. */
import { describe, expect, it } from 'vitest';
import { mrkdwnToMarkdown } from '../../../../adapters/slack/operators/mrkdwn-in.js';

describe("an operator's Slack message as Markdown", () => {
  it('turns bold, strike and links into Markdown, and decodes Slack entities', () => {
    expect(mrkdwnToMarkdown('Your *booking* is ~cancelled~ confirmed: <https://x.example/b?a=1&amp;b=2|details>')).toBe(
      'Your **booking** is ~~cancelled~~ confirmed: [details](https://x.example/b?a=1&b=2)',
    );
    expect(mrkdwnToMarkdown('see <https://x.example> &lt;3 &amp; thanks')).toBe('see https://x.example <3 & thanks');
  });

  it('writes mentions as names and leaves code as it is', () => {
    expect(mrkdwnToMarkdown('<@U0OPER0001> and <#C0OPS00001|support>, <!here>')).toBe(
      '@U0OPER0001 and #support, @here',
    );
    expect(mrkdwnToMarkdown('run `a *b* c` then ```x *y*```')).toBe('run `a *b* c` then ```x *y*```');
  });
});
