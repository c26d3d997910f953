import { z } from 'zod';

const RGB = /^rgb\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)$/i;

const rgbColour = (field: string) =>
  z.string().refine(
    (value) =>
      value === '' ||
      (RGB.test(value) &&
        value
          .match(RGB)!
          .slice(1)
          .every((part) => Number(part) <= 255)),
    { message: `${field} must be a colour like "rgb(37,99,235)" (each part 0-255).` },
  );

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export const timeZone = (field: string) =>
  z.string().refine(isTimeZone, {
    message: `${field} must be an IANA time zone name such as "Europe/Paris" or "UTC".`,
  });

const email = (field: string) =>
  z.string().refine((value) => value === '' || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value), {
    message: `${field} must be an e-mail address (or "" to clear it).`,
  });

const integer = () => z.number().int();

/** Every setting the Edit operation accepts (spec: "Chatbot settings"), without serialNumber. */
export const settingsShape = {
  Name: z.string().max(200),
  Model: z.string(),
  SystemMessage: z.string().max(20_000),
  Temperature: integer().min(0).max(2),
  TimeZone: timeZone('TimeZone'),
  AnswerSuffix: z.string().max(2_000),
  ChatProfilePicture: z.string(),
  ChatIcon: z.string(),
  ChatBubbleAlign: integer().min(0).max(1),
  ChatBubbleColor: rgbColour('ChatBubbleColor'),
  ChatbotPopupOnce: z.boolean(),
  ChatbotPrivacyPolicyDescription: z.string(),
  ChatbotPrivacyPolicyName: z.string(),
  ChatbotPrivacyPolicyUrl: z.string(),
  EnablePushToTalk: z.boolean(),
  EnableUploadImage: z.boolean(),
  FacebookUrl: z.string(),
  InstagramUrl: z.string(),
  RemoveChatLogOnBrowserClose: z.boolean(),
  SuggestedMessage: z.string(),
  TalkToHumanEmail: email('TalkToHumanEmail'),
  TalkToHumanResponseMessage: z.string(),
  UserInputPlaceholder: z.string(),
  UserMessageColor: rgbColour('UserMessageColor'),
  WelcomeMessage: z.string(),
  WhatsappUrl: z.string(),
  VerifyDomain: z.boolean(),
  Domains: z.string(),
  RateLimitCount: integer().min(0),
  RateLimitMessage: z.string(),
  RateLimitTime: integer().min(0),
  CustomDomain: z.string(),
  EmailForDailyChatLogs: email('EmailForDailyChatLogs'),
  EmailForDailyLeads: email('EmailForDailyLeads'),
  AIResponseLanguage: z.string().max(100),
  MessageLimit: integer().min(-1),
};

export const settingsSchema = z.object(settingsShape);
export type ChatbotSettings = z.infer<typeof settingsSchema>;

export const editSchema = z
  .object({ serialNumber: z.string().min(1), ...settingsShape })
  .partial()
  .required({ serialNumber: true });

/**
 * Settings of a new chatbot. Rate limiting is off (RateLimitCount 0) until the
 * owner sets it: the gateway has its own per-user limits, and a surprise 429 on
 * a fresh chatbot helps nobody.
 */
export function defaultSettings(timeZoneName = 'UTC'): ChatbotSettings {
  return {
    Name: 'New chatbot',
    Model: '1',
    SystemMessage: '',
    Temperature: 0,
    TimeZone: timeZoneName,
    AnswerSuffix: '',
    ChatProfilePicture: '',
    ChatIcon: '',
    ChatBubbleAlign: 0,
    ChatBubbleColor: 'rgb(37,99,235)',
    ChatbotPopupOnce: false,
    ChatbotPrivacyPolicyDescription: '',
    ChatbotPrivacyPolicyName: 'privacy policy',
    ChatbotPrivacyPolicyUrl: '',
    EnablePushToTalk: false,
    EnableUploadImage: true,
    FacebookUrl: '',
    InstagramUrl: '',
    RemoveChatLogOnBrowserClose: false,
    SuggestedMessage: '',
    TalkToHumanEmail: '',
    TalkToHumanResponseMessage: 'I have asked a member of our team to join; they will reply here shortly.',
    UserInputPlaceholder: 'Ask me anything…',
    UserMessageColor: 'rgb(37,99,235)',
    WelcomeMessage: 'Hello! How can I help you today?',
    WhatsappUrl: '',
    VerifyDomain: false,
    Domains: '',
    RateLimitCount: 0,
    RateLimitMessage: '',
    RateLimitTime: 0,
    CustomDomain: '',
    EmailForDailyChatLogs: '',
    EmailForDailyLeads: '',
    AIResponseLanguage: 'English',
    MessageLimit: -1,
  };
}
