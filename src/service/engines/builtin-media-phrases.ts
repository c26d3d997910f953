/** What the builtin engine says about files it received, per AIResponseLanguage (see builtin-phrases.ts). */
import type { MediaFacts } from './media-facts.js';

export interface MediaPhrases {
  /** "your photo", "your 2 photos", "your voice message", "your video". */
  your(kind: MediaFacts['kind'], count: number): string;
  received(what: string, details: string): string;
  seconds(n: string): string;
  pixels: string;
  lengthUnknown: string;
  /** Said when there is no question around the file. */
  cannotPerceive(kind: MediaFacts['kind']): string;
  /** Said before answering the caption or question that came with the file. */
  answeringWords(kind: MediaFacts['kind']): string;
}

/** Per language, what the demo cannot do with each kind of file ("I can't look at images"). */
const englishCannot: Record<MediaFacts['kind'], string> = {
  photo: "I can't look at images",
  voice: "I can't listen to recordings",
  video: "I can't watch videos",
};

const english: MediaPhrases = {
  your: (kind, n) =>
    kind === 'photo'
      ? n === 1
        ? 'your photo'
        : `your ${n} photos`
      : kind === 'voice'
        ? 'your voice message'
        : 'your video',
  received: (what, details) => `Thanks, I received ${what} (${details}).`,
  seconds: (n) => `${n} seconds`,
  pixels: 'pixels',
  lengthUnknown: 'I could not read its length',
  cannotPerceive: (kind) =>
    `${englishCannot[kind]} myself in this demo: ` +
    'tell me in words what you are looking for (a city, bedrooms, a budget or an MLS number) and I will search the listings.',
  answeringWords: (kind) => `${englishCannot[kind]} myself, so here is the answer to your words:`,
};

const spanishCannot: Record<MediaFacts['kind'], string> = {
  photo: 'ver imágenes',
  voice: 'escuchar grabaciones',
  video: 'ver vídeos',
};

const spanish: MediaPhrases = {
  your: (kind, n) =>
    kind === 'photo' ? (n === 1 ? 'tu foto' : `tus ${n} fotos`) : kind === 'voice' ? 'tu mensaje de voz' : 'tu vídeo',
  received: (what, details) => `Gracias, recibí ${what} (${details}).`,
  seconds: (n) => `${n} segundos`,
  pixels: 'píxeles',
  lengthUnknown: 'no pude leer su duración',
  cannotPerceive: (kind) =>
    `En esta demo no puedo ${spanishCannot[kind]}: ` +
    'dime con palabras lo que buscas (ciudad, habitaciones, presupuesto o número MLS) y buscaré en las propiedades.',
  answeringWords: (kind) => `No puedo ${spanishCannot[kind]}, así que respondo a tus palabras:`,
};

const frenchCannot: Record<MediaFacts['kind'], string> = {
  photo: 'regarder les images',
  voice: 'écouter les enregistrements',
  video: 'regarder les vidéos',
};

const french: MediaPhrases = {
  your: (kind, n) =>
    kind === 'photo'
      ? n === 1
        ? 'votre photo'
        : `vos ${n} photos`
      : kind === 'voice'
        ? 'votre message vocal'
        : 'votre vidéo',
  received: (what, details) => `Merci, j'ai reçu ${what} (${details}).`,
  seconds: (n) => `${n} secondes`,
  pixels: 'pixels',
  lengthUnknown: "je n'ai pas pu lire sa durée",
  cannotPerceive: (kind) =>
    `Dans cette démo, je ne peux pas ${frenchCannot[kind]} : ` +
    'décrivez avec des mots ce que vous cherchez (ville, chambres, budget ou numéro MLS) et je chercherai dans les annonces.',
  answeringWords: (kind) => `Je ne peux pas ${frenchCannot[kind]}, je réponds donc à votre texte :`,
};

const germanCannot: Record<MediaFacts['kind'], string> = {
  photo: 'keine Bilder ansehen',
  voice: 'keine Aufnahmen anhören',
  video: 'keine Videos ansehen',
};

const german: MediaPhrases = {
  your: (kind, n) =>
    kind === 'photo'
      ? n === 1
        ? 'Ihr Foto'
        : `Ihre ${n} Fotos`
      : kind === 'voice'
        ? 'Ihre Sprachnachricht'
        : 'Ihr Video',
  received: (what, details) => `Danke, ich habe ${what} erhalten (${details}).`,
  seconds: (n) => `${n} Sekunden`,
  pixels: 'Pixel',
  lengthUnknown: 'die Länge konnte ich nicht lesen',
  cannotPerceive: (kind) =>
    `In dieser Demo kann ich ${germanCannot[kind]}: ` +
    'Beschreiben Sie in Worten, was Sie suchen (Stadt, Schlafzimmer, Budget oder MLS-Nummer), dann suche ich in den Angeboten.',
  answeringWords: (kind) => `Ich kann ${germanCannot[kind]}, daher die Antwort auf Ihren Text:`,
};

const italianCannot: Record<MediaFacts['kind'], string> = {
  photo: 'guardare immagini',
  voice: 'ascoltare registrazioni',
  video: 'guardare video',
};

const italian: MediaPhrases = {
  your: (kind, n) =>
    kind === 'photo'
      ? n === 1
        ? 'la tua foto'
        : `le tue ${n} foto`
      : kind === 'voice'
        ? 'il tuo messaggio vocale'
        : 'il tuo video',
  received: (what, details) => `Grazie, ho ricevuto ${what} (${details}).`,
  seconds: (n) => `${n} secondi`,
  pixels: 'pixel',
  lengthUnknown: 'non sono riuscito a leggerne la durata',
  cannotPerceive: (kind) =>
    `In questa demo non posso ${italianCannot[kind]}: descrivi a parole cosa cerchi (città, camere, budget o numero MLS) e cercherò tra gli annunci.`,
  answeringWords: (kind) => `Non posso ${italianCannot[kind]}, quindi rispondo alle tue parole:`,
};

const portugueseCannot: Record<MediaFacts['kind'], string> = {
  photo: 'ver imagens',
  voice: 'ouvir gravações',
  video: 'assistir vídeos',
};

const portuguese: MediaPhrases = {
  your: (kind, n) =>
    kind === 'photo'
      ? n === 1
        ? 'sua foto'
        : `suas ${n} fotos`
      : kind === 'voice'
        ? 'sua mensagem de voz'
        : 'seu vídeo',
  received: (what, details) => `Obrigado, recebi ${what} (${details}).`,
  seconds: (n) => `${n} segundos`,
  pixels: 'pixels',
  lengthUnknown: 'não consegui ler a duração',
  cannotPerceive: (kind) =>
    `Nesta demo não consigo ${portugueseCannot[kind]}: diga em palavras o que você procura (cidade, quartos, orçamento ou número MLS) e eu busco nos imóveis.`,
  answeringWords: (kind) => `Não consigo ${portugueseCannot[kind]}, então respondo às suas palavras:`,
};

export const mediaPhrases = { english, spanish, french, german, italian, portuguese };
