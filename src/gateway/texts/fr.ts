/** French (addressing the user as "vous"; spaced punctuation with plain spaces, as chat apps are typed). */
import type { MediaKind, MediaNoun, UserTexts } from '../user-texts.js';
import { bytesIn, listIn, numberIn, type Language } from './language.js';

const LOCALE = 'fr-FR';
const count = numberIn(LOCALE);
const bytes = bytesIn(LOCALE, { bytes: 'octets', kb: 'Ko', mb: 'Mo' });
const and = listIn(LOCALE, 'conjunction');
const or = listIn(LOCALE, 'disjunction');

const NOUNS: Record<MediaNoun, string> = {
  photo: 'photo',
  image: 'image',
  video: 'vidéo',
  'voice message': 'message vocal',
  'audio file': 'fichier audio',
  file: 'fichier',
};
const FEMININE = new Set<MediaNoun>(['photo', 'image', 'video']);
/** "cette photo", "ce fichier". */
const thisOne = (noun: MediaNoun): string => `${FEMININE.has(noun) ? 'cette' : 'ce'} ${NOUNS[noun]}`;
const ThisOne = (noun: MediaNoun): string => `${FEMININE.has(noun) ? 'Cette' : 'Ce'} ${NOUNS[noun]}`;
const UNITS: Record<MediaKind, string> = { image: 'image', video: 'vidéo', audio: 'message audio' };
const KINDS: Record<MediaKind, string> = { image: 'les photos', video: 'les vidéos', audio: 'les messages vocaux' };

const texts: UserTexts = {
  welcomeDefault: 'Bonjour ! Posez-moi vos questions, je ferai de mon mieux pour vous aider.',
  upstreamDown: "L'assistant n'est pas joignable pour le moment ; veuillez réessayer dans un instant.",
  upstreamWaiting:
    "L'assistant n'est pas joignable pour le moment. Votre message est conservé, et j'y répondrai dès que l'assistant sera de retour.",
  answerCutOff:
    "L'assistant s'est arrêté avant de terminer cette réponse ; veuillez reposer votre question dans un instant.",
  poisonMessage: (tries) =>
    `Ce message n'a pas pu recevoir de réponse après ${count(tries)} tentatives ; veuillez le renvoyer autrement (plus court, ou avec d'autres mots).`,
  upstreamRefused: "L'assistant n'a pas pu répondre à ce message ; veuillez le reformuler ou réessayer plus tard.",
  internalError: 'Un problème est survenu de notre côté pendant la réponse ; veuillez réessayer dans un instant.',
  rateLimitedDefault: 'Vous envoyez des messages trop rapidement ; veuillez patienter un instant avant de réessayer.',
  monthlyLimit: 'Cet assistant a atteint sa limite de messages pour ce mois-ci ; veuillez réessayer le mois prochain.',
  answerDelayed:
    "J'ai bien reçu votre message. Un problème de notre côté retarde la réponse ; elle arrivera ici dès qu'il sera résolu, inutile de renvoyer le message.",
  queueFull: (waiting) => `Vous avez ${count(waiting)} messages en attente ; veuillez attendre les réponses.`,
  messageTooLong: (limit, length) =>
    `Votre message est trop long : je peux lire jusqu'à ${count(limit)} caractères à la fois, et il en contient ${count(length)}. ` +
    "Veuillez le raccourcir ou l'envoyer en plusieurs parties.",
  nothingToAnswer:
    "Ici, je ne peux lire que des messages texte (et des images ou des messages vocaux lorsqu'ils sont activés).",
  staleButton: 'Ce bouton ne fonctionne plus ; veuillez renvoyer la commande.',
  resetDone: 'Nouvelle conversation commencée. Votre prochain message repart de zéro.',
  unknownCommand: (name, help) => `Je ne connais pas la commande /${name}.\n\n${help}`,
  nothingToStop: "Rien n'est en cours d'écriture, il n'y a donc rien à arrêter.",

  emptyAnswer: '(pas de réponse)',
  buttonsMessage: "Plus d'options :",
  supersededMessage: '…',
  interruptedNote: '(Cette réponse a été interrompue. Le message recevra une nouvelle réponse.)',
  stoppedNote: '(Réponse arrêtée.)',

  commandsTitle: '**Commandes**',
  helpFooter: "Tout autre message reçoit une réponse de l'assistant.",
  commandDescriptions: {
    start: 'dire bonjour et voir quoi demander',
    help: 'lister les commandes',
    reset: "commencer une nouvelle conversation (l'assistant oublie celle-ci)",
    listings: 'parcourir les annonces, éventuellement dans une seule ville',
    stop: "arrêter la réponse en cours d'écriture",
    human: 'parler à une personne',
  },
  listings: {
    header: (page, pages, total) => `**Annonces** · page ${count(page)} sur ${count(pages)} (${count(total)} au total)`,
    headerInCity: (city, page, pages, total) =>
      `**Annonces à ${city}** · page ${count(page)} sur ${count(pages)} (${count(total)} au total)`,
    pastTheEnd: (pages, command) =>
      `Il n'y a que ${count(pages)} pages d'annonces. Envoyez \`${command}\` pour recommencer.`,
    pastTheEndInCity: (city, pages, command) =>
      `Il n'y a que ${count(pages)} pages d'annonces à ${city}. Envoyez \`${command}\` pour recommencer.`,
    noneFound: 'Aucune annonce trouvée.',
    noneFoundInCity: (city) => `Aucune annonce trouvée à ${city}. Envoyez \`/listings\` pour voir toutes les annonces.`,
    previousButton: '« Précédente',
    nextButton: 'Suivante »',
    nextPageHint: (command) => `\`${command}\` pour la page suivante`,
    previousPageHint: (command) => `\`${command}\` pour la page précédente`,
    hints: (hints) => `Envoyez ${or(hints)}.`,
    untitled: 'Annonce',
    bedrooms: (count) => `${count} ch.`,
    bathrooms: (count) => `${count} sdb`,
    detailsLink: 'détails',
    perMonth: '/mois',
  },

  media: {
    disabled: {
      image: "Ce chatbot n'accepte pas les photos. Veuillez décrire votre besoin par écrit.",
      video: "Ce chatbot n'accepte pas les vidéos. Veuillez décrire votre besoin par écrit.",
      audio: "Ce chatbot n'accepte pas les messages vocaux. Veuillez plutôt écrire votre question.",
    },
    nothingAccepted: "Ce chatbot n'accepte pas les fichiers. Veuillez plutôt écrire votre question.",
    tooLarge: (noun, kind, limit) =>
      `${ThisOne(noun)} dépasse la limite de ${bytes(limit)} par ${UNITS[kind]}. Veuillez envoyer un fichier plus petit.`,
    tooLargeOfSize: (noun, kind, limit, size) =>
      `${ThisOne(noun)} fait ${bytes(size)} ; la limite est de ${bytes(limit)} par ${UNITS[kind]}.`,
    tooLargeToDownload: (noun, limit) =>
      `${ThisOne(noun)} dépasse ce que je peux télécharger sur cette plateforme : ${bytes(limit)} au maximum. ` +
      'Veuillez envoyer un fichier plus petit.',
    tooLargeToDownloadOfSize: (noun, limit, size) =>
      `${ThisOne(noun)} fait ${bytes(size)} ; sur cette plateforme, je ne peux télécharger que des fichiers de ${bytes(limit)} au maximum. ` +
      'Veuillez envoyer un fichier plus petit.',
    tooLargeFile: (limit) =>
      `Ce fichier est trop volumineux ; le plus gros fichier que je peux accepter fait ${bytes(limit)}.`,
    tooLargeFileOfSize: (limit, size) =>
      `Ce fichier fait ${bytes(size)} ; le plus gros fichier que je peux accepter fait ${bytes(limit)}.`,
    tooLong: (noun, minutes) =>
      `${ThisOne(noun)} dure trop longtemps : je peux accepter environ ${count(minutes)} minutes d'audio au maximum. ` +
      'Veuillez envoyer un enregistrement plus court.',
    mixed:
      "Veuillez envoyer les photos, une vidéo et un message vocal dans des messages séparés ; je ne peux accepter qu'un seul type à la fois.",
    tooMany: {
      image: (max) => `Veuillez envoyer au maximum ${count(max)} photos par message.`,
      video: 'Veuillez envoyer une seule vidéo à la fois.',
      audio: 'Veuillez envoyer un seul message vocal à la fois.',
    },
    sticker: 'Je ne peux pas lire les stickers. Veuillez envoyer une photo ou écrire votre question.',
    animatedGif: 'Les GIF animés ne sont pas pris en charge. Veuillez envoyer une image fixe (PNG, JPEG, WEBP ou GIF).',
    imageFormat: (ext) =>
      `Je peux lire les images PNG, JPEG, WEBP et GIF fixes, mais celle-ci est au format ${ext.toUpperCase()}. ` +
      "Veuillez l'envoyer comme une photo normale.",
    videoFormat: (ext) =>
      `Je peux lire les vidéos MP4, MKV, AVI, FLV et MPEG, mais celle-ci est au format ${ext.toUpperCase()}. ` +
      'Veuillez la convertir en MP4 et la renvoyer.',
    notMedia: (accepted) =>
      `Je ne peux pas lire ce type de fichier. J'accepte ${and(accepted.map((kind) => KINDS[kind]))}.`,
    notMediaOfType: (ext, accepted) =>
      `Je ne peux pas lire ce type de fichier (${ext.toUpperCase()}). J'accepte ${and(accepted.map((kind) => KINDS[kind]))}.`,
    undecodableAudio: (noun) =>
      `Je n'ai pas pu lire ${thisOne(noun)} ; le fichier semble endommagé. Veuillez le réenregistrer ou le renvoyer.`,
    transcoderMissing: (ext) =>
      `Je ne peux pas convertir l'audio ${ext.toUpperCase()} ici. Veuillez plutôt enregistrer un message vocal, ou envoyer l'audio au format WAV.`,
    gone: (noun) =>
      `Je n'ai pas pu lire ${thisOne(noun)} : la conversation n'a plus son fichier (il a expiré ou a été supprimé). Veuillez renvoyer le fichier.`,
    unavailable: (noun) =>
      `Je n'ai pas pu télécharger ${thisOne(noun)} depuis la conversation. Veuillez renvoyer le fichier.`,
    answeredWithout: {
      one: 'Je réponds à votre message sans ce fichier.',
      many: 'Je réponds à votre message sans ces fichiers.',
    },
    refusedByService: (noun, reason) =>
      `L'assistant n'a pas accepté ${thisOne(noun)} : ${reason} Veuillez plutôt décrire votre besoin par écrit.`,
  },

  handoff: {
    defaultReply: "J'ai demandé à une personne de vous aider. Elle vous répondra ici dès que possible.",
    botIsBack: "Vous parlez de nouveau avec l'assistant. Posez-moi vos questions !",
    alreadyWithAPerson: 'Une personne a déjà été sollicitée ; elle vous répondra ici.',
    offer: 'Voulez-vous parler à une personne ?',
    offerButton: 'Parler à une personne',
    offerWithoutButtons: 'Tapez /human pour parler à une personne.',
  },
};

export const french: Language = {
  code: 'fr',
  name: 'French',
  locale: LOCALE,
  texts,
  number: count,
  bytes,
  nouns: NOUNS,
  units: UNITS,
  kinds: KINDS,
};
