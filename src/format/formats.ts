/** The text formats Markdown is rendered to: one per platform family (an adapter declares which it sends). */
export type TextFormat = 'telegram-html' | 'slack-mrkdwn' | 'whatsapp' | 'plain';
