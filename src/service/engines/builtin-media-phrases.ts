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
    `${kind === 'photo' ? "I can't look at images" : kind === 'voice' ? "I can't listen to recordings" : "I can't watch videos"} myself in this demo: tell me in words what you are looking for (a city, bedrooms, a budget or an MLS number) and I will search the listings.`,
  answeringWords: (kind) =>
    `${kind === 'photo' ? "I can't look at images" : kind === 'voice' ? "I can't listen to recordings" : "I can't watch videos"} myself, so here is the answer to your words:`,
};

const spanish: MediaPhrases = {
  your: (kind, n) =>
    kind === 'photo' ? (n === 1 ? 'tu foto' : `tus ${n} fotos`) : kind === 'voice' ? 'tu mensaje de voz' : 'tu vídeo',
  received: (what, details) => `Gracias, recibí ${what} (${details}).`,
  seconds: (n) => `${n} segundos`,
  pixels: 'píxeles',
  lengthUnknown: 'no pude leer su duración',
  cannotPerceive: (kind) =>
    `En esta demo no puedo ${kind === 'photo' ? 'ver imágenes' : kind === 'voice' ? 'escuchar grabaciones' : 'ver vídeos'}: dime con palabras lo que buscas (ciudad, habitaciones, presupuesto o número MLS) y buscaré en las propiedades.`,
  answeringWords: (kind) =>
    `No puedo ${kind === 'photo' ? 'ver imágenes' : kind === 'voice' ? 'escuchar grabaciones' : 'ver vídeos'}, así que respondo a tus palabras:`,
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
    `Dans cette démo, je ne peux pas ${kind === 'photo' ? 'regarder les images' : kind === 'voice' ? 'écouter les enregistrements' : 'regarder les vidéos'} : décrivez avec des mots ce que vous cherchez (ville, chambres, budget ou numéro MLS) et je chercherai dans les annonces.`,
  answeringWords: (kind) =>
    `Je ne peux pas ${kind === 'photo' ? 'regarder les images' : kind === 'voice' ? 'écouter les enregistrements' : 'regarder les vidéos'}, je réponds donc à votre texte :`,
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
    `In dieser Demo kann ich ${kind === 'photo' ? 'keine Bilder ansehen' : kind === 'voice' ? 'keine Aufnahmen anhören' : 'keine Videos ansehen'}: Beschreiben Sie in Worten, was Sie suchen (Stadt, Schlafzimmer, Budget oder MLS-Nummer), dann suche ich in den Angeboten.`,
  answeringWords: (kind) =>
    `Ich kann ${kind === 'photo' ? 'keine Bilder ansehen' : kind === 'voice' ? 'keine Aufnahmen anhören' : 'keine Videos ansehen'}, daher die Antwort auf Ihren Text:`,
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
    `In questa demo non posso ${kind === 'photo' ? 'guardare immagini' : kind === 'voice' ? 'ascoltare registrazioni' : 'guardare video'}: descrivi a parole cosa cerchi (città, camere, budget o numero MLS) e cercherò tra gli annunci.`,
  answeringWords: (kind) =>
    `Non posso ${kind === 'photo' ? 'guardare immagini' : kind === 'voice' ? 'ascoltare registrazioni' : 'guardare video'}, quindi rispondo alle tue parole:`,
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
    `Nesta demo não consigo ${kind === 'photo' ? 'ver imagens' : kind === 'voice' ? 'ouvir gravações' : 'assistir vídeos'}: diga em palavras o que você procura (cidade, quartos, orçamento ou número MLS) e eu busco nos imóveis.`,
  answeringWords: (kind) =>
    `Não consigo ${kind === 'photo' ? 'ver imagens' : kind === 'voice' ? 'ouvir gravações' : 'assistir vídeos'}, então respondo às suas palavras:`,
};

export const mediaPhrases = { english, spanish, french, german, italian, portuguese };
