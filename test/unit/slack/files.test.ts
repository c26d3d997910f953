import { describe, expect, it } from 'vitest';
import { isSlackFileUrl, kindOfFile } from '../../../adapters/slack/files.js';

describe('Slack shared files', () => {
  it("sends the bot token only to Slack file hosts over https, or to SLACK_API_URL's origin", () => {
    const slack = {};
    expect(isSlackFileUrl('https://files.slack.com/files-pri/T1-F1/download/a.jpg', slack)).toBe(true);
    expect(isSlackFileUrl('https://a.slack-edge.com/x/a.jpg', slack)).toBe(true);
    expect(isSlackFileUrl('http://files.slack.com/files-pri/T1-F1/a.jpg', slack)).toBe(false);
    expect(isSlackFileUrl('https://files.slack.com.evil.example/a.jpg', slack)).toBe(false);
    expect(isSlackFileUrl('https://evilslack-edge.com/a.jpg', slack)).toBe(false);
    expect(isSlackFileUrl('not a url', slack)).toBe(false);
    const fake = { apiUrl: 'http://127.0.0.1:4567/api/' };
    expect(isSlackFileUrl('http://127.0.0.1:4567/files-pri/T1-F1/download/a.jpg', fake)).toBe(true);
    expect(isSlackFileUrl('http://127.0.0.1:4568/files-pri/T1-F1/download/a.jpg', fake)).toBe(false);
  });

  it("names the kind from Slack's subtype first (voice and video clips), then the MIME type", () => {
    expect(kindOfFile({ mimetype: 'audio/mp4', subtype: 'slack_audio' })).toBe('voice');
    expect(kindOfFile({ mimetype: 'video/mp4', subtype: 'slack_audio' })).toBe('voice');
    expect(kindOfFile({ mimetype: 'video/mp4', subtype: 'slack_video' })).toBe('video');
    expect(kindOfFile({ mimetype: 'image/png' })).toBe('image');
    expect(kindOfFile({ mimetype: 'audio/mpeg' })).toBe('audio');
    expect(kindOfFile({ mimetype: 'video/quicktime' })).toBe('video');
    expect(kindOfFile({ mimetype: 'application/pdf' })).toBe('document');
    expect(kindOfFile({})).toBe('document');
  });
});
