/**
 * Every sentence a user can read that the gateway writes itself, in English: the fallbacks of the
 * greeting and of the rate limit, refusals, notices, "please wait", the note on an interrupted
 * answer, the refusals of files, the listings' frame, the commands' descriptions in /help, and
 * the handoff's words to the user. What the chatbot's settings say (WelcomeMessage,
 * RateLimitMessage, TalkToHumanResponseMessage) comes first where it is set; these are said
 * otherwise. An adapter keeps its platform's own words (a link page, its "not started" refusal):
 * it imports the contract only.
 *
 * This object is the catalogue's shape (`UserTexts`): the other languages (texts/es.ts, pt.ts,
 * fr.ts, de.ts) are objects of the same shape, so a sentence added here does not compile until
 * each of them says it too. Which one a conversation reads is its chatbot's AIResponseLanguage,
 * at the moment the gateway speaks (texts/languages.ts), with the bot's overrides from the config
 * (`bots[].texts.<key>`, texts/overrides.ts) on top; code reads the catalogue it is handed
 * (`ctx.texts()` in a turn), never this object, except as the English default.
 *
 * A sentence is a string, or a function of the values it names; each function's placeholders for
 * an override are listed in texts/placeholders.ts, named after its parameters. A sentence with a
 * city, a size or a count is one sentence per case rather than a fragment put together with
 * another (`header`, `headerInCity`): word order differs between languages. The texts are Markdown,
 * rendered for each platform; numbers are grouped the English way.
 *
 * It sits at the top of src/gateway, importing nothing, so that every stage (the media stage is
 * the first) and the handoff (through src/gateway/index.ts) can read it.
 */

/** "20,000": the texts are English. */
const count = (n: number): string => n.toLocaleString('en-US');

/** "512 bytes", "120 KB", "20 MB", "23.4 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  const mb = bytes / (1024 * 1024);
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
}

/** What a refused file is called in a sentence ('file': its kind is not known). */
export type MediaNoun = 'photo' | 'image' | 'video' | 'voice message' | 'audio file' | 'file';
/** The kinds of media a chatbot may accept (media/sniff.ts MediaCategory without 'other'). */
export type MediaKind = 'image' | 'video' | 'audio';

/** "per image": what a kind's size limit counts. */
export const ENGLISH_LIMIT_UNITS: Record<MediaKind, string> = {
  image: 'image',
  video: 'video',
  audio: 'audio message',
};
/** What a chatbot accepts, in a list: "photos and voice messages". */
export const ENGLISH_KIND_NAMES: Record<MediaKind, string> = {
  image: 'photos',
  video: 'videos',
  audio: 'voice messages',
};

/** "photos, videos and voice messages". */
const and = (items: readonly string[]): string => items.join(', ').replace(/, ([^,]*)$/, ' and $1');

export const userTexts = {
  // The gateway's replies in a turn, or out of one.
  welcomeDefault: 'Hello! Ask me anything, and I will do my best to help.',
  upstreamDown: 'The assistant is not reachable right now; please try again in a moment.',
  upstreamWaiting:
    'The assistant is not reachable right now. Your message is kept, and I will answer it as soon as the assistant is back.',
  answerCutOff: 'The assistant stopped before finishing this answer; please ask again in a moment.',
  poisonMessage: (tries: number) =>
    `This message could not be answered after ${tries} tries; please send it again differently (shorter, or in other words).`,
  upstreamRefused: 'The assistant could not answer this message; please rephrase it or try again later.',
  internalError: 'Something went wrong on our side while answering; please try again in a moment.',
  rateLimitedDefault: 'You are sending messages too quickly; please wait a moment and try again.',
  monthlyLimit: 'This assistant has reached its message limit for this month; please try again next month.',
  answerDelayed:
    'I got your message. A problem on our side is holding up the answer; it will come here as soon as that is fixed, no need to send it again.',
  queueFull: (waiting: number) => `You have ${count(waiting)} messages waiting; please wait for the answers.`,
  /** `limit` and `length` in the characters the service counts (src/upstream/limits.ts). */
  messageTooLong: (limit: number, length: number) =>
    `Your message is too long: I can read up to ${count(limit)} characters at a time, and it has ${count(length)}. ` +
    'Please shorten it, or send it in parts.',
  nothingToAnswer: 'I can only read text messages here (and images or voice notes when they are enabled).',
  staleButton: 'That button no longer works; please send the command again.',
  resetDone: 'Started a new conversation. Your next message begins with a clean slate.',
  /** `help` is the list of commands (commandsTitle and the commands' lines). */
  unknownCommand: (name: string, help: string) => `I don't know the command /${name}.\n\n${help}`,
  /** /stop while no answer is being written in this conversation. */
  nothingToStop: 'Nothing is being written right now, so there is nothing to stop.',

  // The answer as it is shown (relay/).
  /** Shown instead of an empty answer: platforms refuse empty messages and silence looks broken. */
  emptyAnswer: '(no answer)',
  /** The buttons in a message of their own, where they cannot go with the answer's last message. */
  buttonsMessage: 'More options:',
  /** A message an intermediate render left that the final answer no longer needs (an outbound cannot delete). */
  supersededMessage: '…',
  /** Added below an answer cut off by a crash or a lost lock (relay/recovery.ts), on a line of its own. */
  interruptedNote: '(This answer was interrupted. It will be answered again.)',
  /** Added below an answer the user stopped (/stop), on a line of its own. */
  stoppedNote: '(Stopped.)',

  // The commands (commands/): their descriptions are the lines of /help (and of Telegram's command menu).
  commandsTitle: '**Commands**',
  helpFooter: 'Anything else you write is answered by the assistant.',
  commandDescriptions: {
    start: 'say hello and see what to ask',
    help: 'list the commands',
    reset: 'start a new conversation (the assistant forgets this one)',
    listings: 'browse the listings, optionally in one city',
    stop: 'stop the answer being written',
    /** The handoff's command (src/handoff). */
    human: 'talk to a person',
  },
  /** A page of /listings (commands/listings-page.ts). `city` is Markdown-escaped; `command` the /listings to send. */
  listings: {
    header: (page: number, pages: number, total: number) =>
      `**Listings** · page ${count(page)} of ${count(pages)} (${count(total)} in all)`,
    headerInCity: (city: string, page: number, pages: number, total: number) =>
      `**Listings in ${city}** · page ${count(page)} of ${count(pages)} (${count(total)} in all)`,
    pastTheEnd: (pages: number, command: string) =>
      `There are only ${count(pages)} pages of listings. Send \`${command}\` to start again.`,
    pastTheEndInCity: (city: string, pages: number, command: string) =>
      `There are only ${count(pages)} pages of listings in ${city}. Send \`${command}\` to start again.`,
    noneFound: 'No listings found.',
    noneFoundInCity: (city: string) => `No listings found in ${city}. Send \`/listings\` to see every listing.`,
    previousButton: '« Previous',
    nextButton: 'Next »',
    /** Where a page has no button: `/listings Austin 2` for the next page. */
    nextPageHint: (command: string) => `\`${command}\` for the next page`,
    previousPageHint: (command: string) => `\`${command}\` for the previous page`,
    /** The page hints above, one or two. */
    hints: (hints: string[]) => `Send ${hints.join(', or ')}.`,
    /** A listing with none of the facts below. */
    untitled: 'Listing',
    /** `count` as the service gives it ("3"). */
    bedrooms: (count: string) => `${count} bd`,
    bathrooms: (count: string) => `${count} ba`,
    /** The text of the link to the listing's page. */
    detailsLink: 'details',
    /** After a rent's price: "$2,100/month". */
    perMonth: '/month',
  },

  // A message's files refused (media/): each says what happened, names the limit, and what to send instead.
  // `noun` is what the file is called (MediaNoun); sizes (`limit`, `size`) are in bytes.
  media: {
    /** The chatbot's settings turn this kind off (EnableUploadImage, EnablePushToTalk). */
    disabled: {
      image: "This chatbot doesn't accept photos. Please describe what you need in text.",
      video: "This chatbot doesn't accept videos. Please describe what you need in text.",
      audio: "This chatbot doesn't accept voice messages. Please type your question instead.",
    },
    nothingAccepted: "This chatbot doesn't accept files. Please type your question instead.",
    /** Over the service's limit for the kind, found while downloading (its size is not known). */
    tooLarge: (noun: MediaNoun, kind: MediaKind, limit: number) =>
      `This ${noun} is larger than the limit of ${formatBytes(limit)} per ${ENGLISH_LIMIT_UNITS[kind]}. Please send a smaller one.`,
    /** Over the service's limit for the kind, with the file's size. */
    tooLargeOfSize: (noun: MediaNoun, kind: MediaKind, limit: number, size: number) =>
      `This ${noun} is ${formatBytes(size)}; the limit is ${formatBytes(limit)} per ${ENGLISH_LIMIT_UNITS[kind]}.`,
    /** Over what the platform lets a bot download, which is below the service's limit. */
    tooLargeToDownload: (noun: MediaNoun, limit: number) =>
      `This ${noun} is too large; on this platform I can only download files up to ${formatBytes(limit)}. Please send a smaller one.`,
    tooLargeToDownloadOfSize: (noun: MediaNoun, limit: number, size: number) =>
      `This ${noun} is ${formatBytes(size)}; on this platform I can only download files up to ${formatBytes(limit)}. Please send a smaller one.`,
    /** A document whose type is not known yet, over the largest limit of what this chatbot accepts. */
    tooLargeFile: (limit: number) => `This file is too large; the largest file I can take is ${formatBytes(limit)}.`,
    tooLargeFileOfSize: (limit: number, size: number) =>
      `This file is ${formatBytes(size)}; the largest file I can take is ${formatBytes(limit)}.`,
    /** Longer than the service's audio limit, in whole minutes. */
    tooLong: (noun: MediaNoun, minutes: number) =>
      `This ${noun} is too long: I can take up to about ${count(minutes)} minutes of audio. Please send a shorter one.`,
    mixed: 'Please send photos, a video and a voice message in separate messages; I can take only one kind at a time.',
    tooMany: {
      image: (max: number) => `Please send at most ${count(max)} photos in one message.`,
      video: 'Please send one video at a time.',
      audio: 'Please send one voice message at a time.',
    },
    sticker: "I can't read stickers. Please send a photo or type your question.",
    animatedGif: "Animated GIFs aren't supported. Please send a still image (PNG, JPEG, WEBP or GIF).",
    /** `ext` as sniffed ("webp"); shown in capitals. */
    imageFormat: (ext: string) =>
      `I can read PNG, JPEG, WEBP and still GIF images, but this one is ${ext.toUpperCase()}. Please send it as a regular photo.`,
    videoFormat: (ext: string) =>
      `I can read MP4, MKV, AVI, FLV and MPEG videos, but this one is ${ext.toUpperCase()}. Please convert it to MP4 and send it again.`,
    /** A file that is not an image, video or audio, of no known type. `accepted`: what this chatbot takes. */
    notMedia: (accepted: MediaKind[]) =>
      `I can't read this kind of file. I can take ${and(accepted.map((kind) => ENGLISH_KIND_NAMES[kind]))}.`,
    /** The same, of a known type (`ext`: "pdf"). */
    notMediaOfType: (ext: string, accepted: MediaKind[]) =>
      `I can't read this kind of file (${ext.toUpperCase()}). I can take ${and(accepted.map((kind) => ENGLISH_KIND_NAMES[kind]))}.`,
    undecodableAudio: (noun: MediaNoun) =>
      `I couldn't play this ${noun}; it seems to be damaged. Please record or send it again.`,
    transcoderMissing: (ext: string) =>
      `I can't convert ${ext.toUpperCase()} audio here. Please record a voice message instead, or send the audio as WAV.`,
    /** The platform no longer has the file (its link expired, it was deleted, the platform forgot it). */
    gone: (noun: MediaNoun) =>
      `I couldn't read this ${noun}: the chat no longer has its file (it expired or was deleted). Please send it again.`,
    /** The platform would not give the file for another reason (refused, out of reach). */
    unavailable: (noun: MediaNoun) => `I couldn't download this ${noun} from the chat. Please send it again.`,
    /** After the refusals of files that could not be read, when the message's text (or its other files) is answered anyway. */
    answeredWithout: {
      one: "I'm answering your message without it.",
      many: "I'm answering your message without them.",
    },
    /** The service refused a file the gateway let through; `reason` is the service's (English), ending in a full stop. */
    refusedByService: (noun: MediaNoun, reason: string) =>
      `The assistant did not accept this ${noun}: ${reason} Please describe what you need in text instead.`,
  },

  // The handoff's words to the user (src/handoff reads them through src/gateway/index.ts).
  handoff: {
    /** When the chatbot's TalkToHumanResponseMessage is empty. */
    defaultReply: 'I have asked a person to help you. They will answer here as soon as they can.',
    /** The conversation returns to the bot (handed back, or the pause expired). */
    botIsBack: 'You are talking to the assistant again. Ask me anything!',
    /** /human (or the button) while a person already has the conversation. */
    alreadyWithAPerson: 'A person has already been asked to help; they will answer here.',
    /** After an answer the assistant did not have, on a platform with buttons. */
    offer: 'Would you like to talk to a person?',
    offerButton: 'Talk to a person',
    /** The same, on a platform without buttons. */
    offerWithoutButtons: 'Type /human to talk to a person.',
  },
};

/** The shape of the catalogue: what every language provides. */
export type UserTexts = typeof userTexts;
