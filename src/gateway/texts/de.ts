/** German (addressing the user as "Sie"). */
import type { MediaKind, MediaNoun, UserTexts } from '../user-texts.js';
import { bytesIn, listIn, numberIn, type Language } from './language.js';

const LOCALE = 'de-DE';
const count = numberIn(LOCALE);
const bytes = bytesIn(LOCALE, { bytes: 'Byte', kb: 'KB', mb: 'MB' });
const and = listIn(LOCALE, 'conjunction');
const or = listIn(LOCALE, 'disjunction');

const NOUNS: Record<MediaNoun, string> = {
  photo: 'Foto',
  image: 'Bild',
  video: 'Video',
  'voice message': 'Sprachnachricht',
  'audio file': 'Audiodatei',
  file: 'Datei',
};
const FEMININE = new Set<MediaNoun>(['voice message', 'audio file', 'file']);
/** "dieses Foto", "diese Datei" (nominative and accusative alike: no noun here is masculine). */
const thisOne = (noun: MediaNoun): string => `${FEMININE.has(noun) ? 'diese' : 'dieses'} ${NOUNS[noun]}`;
const ThisOne = (noun: MediaNoun): string => `${FEMININE.has(noun) ? 'Diese' : 'Dieses'} ${NOUNS[noun]}`;
const UNITS: Record<MediaKind, string> = { image: 'Bild', video: 'Video', audio: 'Audionachricht' };
const KINDS: Record<MediaKind, string> = { image: 'Fotos', video: 'Videos', audio: 'Sprachnachrichten' };

const texts: UserTexts = {
  welcomeDefault: 'Hallo! Fragen Sie mich, was Sie möchten – ich helfe, so gut ich kann.',
  upstreamDown: 'Der Assistent ist gerade nicht erreichbar; bitte versuchen Sie es gleich noch einmal.',
  upstreamWaiting:
    'Der Assistent ist gerade nicht erreichbar. Ihre Nachricht ist gespeichert, und ich beantworte sie, sobald der Assistent wieder da ist.',
  answerCutOff: 'Der Assistent hat aufgehört, bevor diese Antwort fertig war; bitte fragen Sie gleich noch einmal.',
  poisonMessage: (tries) =>
    `Diese Nachricht konnte nach ${count(tries)} Versuchen nicht beantwortet werden; bitte senden Sie sie anders noch einmal (kürzer oder mit anderen Worten).`,
  upstreamRefused:
    'Der Assistent konnte diese Nachricht nicht beantworten; bitte formulieren Sie sie um oder versuchen Sie es später noch einmal.',
  internalError: 'Bei uns ist beim Antworten etwas schiefgegangen; bitte versuchen Sie es gleich noch einmal.',
  rateLimitedDefault:
    'Sie senden Nachrichten zu schnell; bitte warten Sie einen Moment und versuchen Sie es dann noch einmal.',
  monthlyLimit:
    'Dieser Assistent hat sein Nachrichtenlimit für diesen Monat erreicht; bitte versuchen Sie es nächsten Monat wieder.',
  answerDelayed:
    'Ihre Nachricht ist angekommen. Ein Problem bei uns hält die Antwort auf; sie kommt hierher, sobald es behoben ist. ' +
    'Sie müssen die Nachricht nicht noch einmal senden.',
  queueFull: (waiting) =>
    `Sie haben ${count(waiting)} Nachrichten in der Warteschlange; bitte warten Sie auf die Antworten.`,
  messageTooLong: (limit, length) =>
    `Ihre Nachricht ist zu lang: Ich kann bis zu ${count(limit)} Zeichen auf einmal lesen, und sie hat ${count(length)}. ` +
    'Bitte kürzen Sie sie oder senden Sie sie in mehreren Teilen.',
  nothingToAnswer:
    'Hier kann ich nur Textnachrichten lesen (und Bilder oder Sprachnachrichten, wenn sie aktiviert sind).',
  staleButton: 'Diese Schaltfläche funktioniert nicht mehr; bitte senden Sie den Befehl noch einmal.',
  resetDone: 'Ein neues Gespräch hat begonnen. Ihre nächste Nachricht fängt bei null an.',
  unknownCommand: (name, help) => `Den Befehl /${name} kenne ich nicht.\n\n${help}`,
  nothingToStop: 'Gerade wird nichts geschrieben, also gibt es nichts anzuhalten.',

  emptyAnswer: '(keine Antwort)',
  buttonsMessage: 'Weitere Optionen:',
  supersededMessage: '…',
  interruptedNote: '(Diese Antwort wurde unterbrochen. Die Nachricht wird noch einmal beantwortet.)',
  stoppedNote: '(Antwort angehalten.)',

  commandsTitle: '**Befehle**',
  helpFooter: 'Alles andere, was Sie schreiben, beantwortet der Assistent.',
  commandDescriptions: {
    start: 'Hallo sagen und sehen, was Sie fragen können',
    help: 'die Befehle auflisten',
    reset: 'ein neues Gespräch beginnen (der Assistent vergisst dieses)',
    listings: 'die Angebote durchsehen, wahlweise in einer Stadt',
    stop: 'die Antwort anhalten, die gerade geschrieben wird',
    human: 'mit einem Menschen sprechen',
  },
  listings: {
    header: (page, pages, total) =>
      `**Angebote** · Seite ${count(page)} von ${count(pages)} (${count(total)} insgesamt)`,
    headerInCity: (city, page, pages, total) =>
      `**Angebote in ${city}** · Seite ${count(page)} von ${count(pages)} (${count(total)} insgesamt)`,
    pastTheEnd: (pages, command) =>
      `Es gibt nur ${count(pages)} Seiten mit Angeboten. Senden Sie \`${command}\`, um von vorn zu beginnen.`,
    pastTheEndInCity: (city, pages, command) =>
      `Es gibt nur ${count(pages)} Seiten mit Angeboten in ${city}. Senden Sie \`${command}\`, um von vorn zu beginnen.`,
    noneFound: 'Keine Angebote gefunden.',
    noneFoundInCity: (city) =>
      `Keine Angebote in ${city} gefunden. Senden Sie \`/listings\`, um alle Angebote zu sehen.`,
    previousButton: '« Zurück',
    nextButton: 'Weiter »',
    nextPageHint: (command) => `\`${command}\` für die nächste Seite`,
    previousPageHint: (command) => `\`${command}\` für die vorige Seite`,
    hints: (hints) => `Senden Sie ${or(hints)}.`,
    untitled: 'Angebot',
    bedrooms: (count) => `${count} SZ`,
    bathrooms: (count) => `${count} Bad`,
    detailsLink: 'Details',
    perMonth: '/Monat',
  },

  media: {
    disabled: {
      image: 'Dieser Chatbot nimmt keine Fotos an. Bitte beschreiben Sie in Worten, was Sie brauchen.',
      video: 'Dieser Chatbot nimmt keine Videos an. Bitte beschreiben Sie in Worten, was Sie brauchen.',
      audio: 'Dieser Chatbot nimmt keine Sprachnachrichten an. Bitte tippen Sie Ihre Frage stattdessen ein.',
    },
    nothingAccepted: 'Dieser Chatbot nimmt keine Dateien an. Bitte tippen Sie Ihre Frage stattdessen ein.',
    tooLarge: (noun, kind, limit) =>
      `${ThisOne(noun)} ist größer als das Limit von ${bytes(limit)} pro ${UNITS[kind]}. Bitte senden Sie eine kleinere Datei.`,
    tooLargeOfSize: (noun, kind, limit, size) =>
      `${ThisOne(noun)} ist ${bytes(size)} groß; das Limit liegt bei ${bytes(limit)} pro ${UNITS[kind]}.`,
    tooLargeToDownload: (noun, limit) =>
      `${ThisOne(noun)} ist zu groß; auf dieser Plattform kann ich nur Dateien bis ${bytes(limit)} herunterladen. ` +
      'Bitte senden Sie eine kleinere Datei.',
    tooLargeToDownloadOfSize: (noun, limit, size) =>
      `${ThisOne(noun)} ist ${bytes(size)} groß; auf dieser Plattform kann ich nur Dateien bis ${bytes(limit)} herunterladen. ` +
      'Bitte senden Sie eine kleinere Datei.',
    tooLargeFile: (limit) => `Diese Datei ist zu groß; die größte Datei, die ich annehmen kann, hat ${bytes(limit)}.`,
    tooLargeFileOfSize: (limit, size) =>
      `Diese Datei ist ${bytes(size)} groß; die größte Datei, die ich annehmen kann, hat ${bytes(limit)}.`,
    tooLong: (noun, minutes) =>
      `${ThisOne(noun)} ist zu lang: Ich kann bis zu etwa ${count(minutes)} Minuten Audio annehmen. Bitte senden Sie eine kürzere Aufnahme.`,
    mixed:
      'Bitte senden Sie Fotos, ein Video und eine Sprachnachricht in getrennten Nachrichten; ich kann immer nur eine Art auf einmal annehmen.',
    tooMany: {
      image: (max) => `Bitte senden Sie höchstens ${count(max)} Fotos in einer Nachricht.`,
      video: 'Bitte senden Sie immer nur ein Video auf einmal.',
      audio: 'Bitte senden Sie immer nur eine Sprachnachricht auf einmal.',
    },
    sticker: 'Sticker kann ich nicht lesen. Bitte senden Sie ein Foto oder tippen Sie Ihre Frage ein.',
    animatedGif:
      'Animierte GIFs werden nicht unterstützt. Bitte senden Sie ein unbewegtes Bild (PNG, JPEG, WEBP oder GIF).',
    imageFormat: (ext) =>
      `Ich kann PNG-, JPEG-, WEBP- und unbewegte GIF-Bilder lesen, aber dieses ist ${ext.toUpperCase()}. Bitte senden Sie es als normales Foto.`,
    videoFormat: (ext) =>
      `Ich kann MP4-, MKV-, AVI-, FLV- und MPEG-Videos lesen, aber dieses ist ${ext.toUpperCase()}. ` +
      'Bitte wandeln Sie es in MP4 um und senden Sie es noch einmal.',
    notMedia: (accepted) =>
      `Diese Art von Datei kann ich nicht lesen. Ich kann ${and(accepted.map((kind) => KINDS[kind]))} annehmen.`,
    notMediaOfType: (ext, accepted) =>
      `Diese Art von Datei (${ext.toUpperCase()}) kann ich nicht lesen. Ich kann ${and(accepted.map((kind) => KINDS[kind]))} annehmen.`,
    undecodableAudio: (noun) =>
      `Ich konnte ${thisOne(noun)} nicht abspielen; die Datei scheint beschädigt zu sein. ` +
      'Bitte nehmen Sie sie neu auf oder senden Sie sie noch einmal.',
    transcoderMissing: (ext) =>
      `Audio im Format ${ext.toUpperCase()} kann ich hier nicht umwandeln. ` +
      'Bitte nehmen Sie stattdessen eine Sprachnachricht auf oder senden Sie das Audio als WAV.',
    gone: (noun) =>
      `Ich konnte ${thisOne(noun)} nicht lesen: Der Chat hat die Datei nicht mehr (sie ist abgelaufen oder wurde gelöscht). ` +
      'Bitte senden Sie sie noch einmal.',
    unavailable: (noun) =>
      `Ich konnte ${thisOne(noun)} nicht aus dem Chat herunterladen. Bitte senden Sie die Datei noch einmal.`,
    answeredWithout: {
      one: 'Ich beantworte Ihre Nachricht ohne diese Datei.',
      many: 'Ich beantworte Ihre Nachricht ohne diese Dateien.',
    },
    refusedByService: (noun, reason) =>
      `Der Assistent hat ${thisOne(noun)} nicht angenommen: ${reason} Bitte beschreiben Sie stattdessen in Worten, was Sie brauchen.`,
  },

  handoff: {
    defaultReply: 'Ich habe einen Menschen gebeten, Ihnen zu helfen. Sie bekommen hier eine Antwort, sobald es geht.',
    botIsBack: 'Sie sprechen wieder mit dem Assistenten. Fragen Sie mich, was Sie möchten!',
    alreadyWithAPerson: 'Ein Mensch wurde bereits um Hilfe gebeten; Sie bekommen hier eine Antwort.',
    offer: 'Möchten Sie mit einem Menschen sprechen?',
    offerButton: 'Mit einem Menschen sprechen',
    offerWithoutButtons: 'Schreiben Sie /human, um mit einem Menschen zu sprechen.',
  },
};

export const german: Language = {
  code: 'de',
  name: 'German',
  locale: LOCALE,
  texts,
  number: count,
  bytes,
  nouns: NOUNS,
  units: UNITS,
  kinds: KINDS,
};
