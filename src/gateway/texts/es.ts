/** Spanish (neutral, addressing the user as "tú"). */
import type { MediaKind, MediaNoun, UserTexts } from '../user-texts.js';
import { bytesIn, listIn, numberIn, type Language } from './language.js';

const LOCALE = 'es-ES';
const count = numberIn(LOCALE);
const bytes = bytesIn(LOCALE, { bytes: 'bytes', kb: 'KB', mb: 'MB' });
const and = listIn(LOCALE, 'conjunction');
const or = listIn(LOCALE, 'disjunction');

const NOUNS: Record<MediaNoun, string> = {
  photo: 'foto',
  image: 'imagen',
  video: 'video',
  'voice message': 'mensaje de voz',
  'audio file': 'archivo de audio',
  file: 'archivo',
};
const FEMININE = new Set<MediaNoun>(['photo', 'image']);
/** "esta foto", "este video". */
const thisOne = (noun: MediaNoun): string => `${FEMININE.has(noun) ? 'esta' : 'este'} ${NOUNS[noun]}`;
/** The same at the start of a sentence. */
const ThisOne = (noun: MediaNoun): string => `${FEMININE.has(noun) ? 'Esta' : 'Este'} ${NOUNS[noun]}`;
const UNITS: Record<MediaKind, string> = { image: 'imagen', video: 'video', audio: 'mensaje de audio' };
const KINDS: Record<MediaKind, string> = { image: 'fotos', video: 'videos', audio: 'mensajes de voz' };

const texts: UserTexts = {
  welcomeDefault: '¡Hola! Pregúntame lo que quieras y haré lo posible por ayudarte.',
  upstreamDown: 'El asistente no está disponible ahora mismo; vuelve a intentarlo en unos instantes.',
  upstreamWaiting:
    'El asistente no está disponible ahora mismo. Tu mensaje está guardado y lo responderé en cuanto el asistente vuelva.',
  answerCutOff: 'El asistente se detuvo antes de terminar esta respuesta; vuelve a preguntar en unos instantes.',
  poisonMessage: (tries) =>
    `No se pudo responder a este mensaje tras ${count(tries)} intentos; envíalo de nuevo de otra forma (más corto o con otras palabras).`,
  upstreamRefused: 'El asistente no pudo responder a este mensaje; reformúlalo o vuelve a intentarlo más tarde.',
  internalError: 'Algo salió mal por nuestra parte al responder; vuelve a intentarlo en unos instantes.',
  rateLimitedDefault: 'Estás enviando mensajes demasiado rápido; espera un momento y vuelve a intentarlo.',
  monthlyLimit: 'Este asistente ha alcanzado su límite de mensajes de este mes; vuelve a intentarlo el mes que viene.',
  answerDelayed:
    'Recibí tu mensaje. Un problema por nuestra parte está retrasando la respuesta; llegará aquí en cuanto se solucione, ' +
    'no hace falta que lo vuelvas a enviar.',
  queueFull: (waiting) => `Tienes ${count(waiting)} mensajes en espera; espera a que lleguen las respuestas.`,
  messageTooLong: (limit, length) =>
    `Tu mensaje es demasiado largo: puedo leer hasta ${count(limit)} caracteres a la vez y el tuyo tiene ${count(length)}. ` +
    'Acórtalo o envíalo en varias partes.',
  nothingToAnswer: 'Aquí solo puedo leer mensajes de texto (e imágenes o notas de voz cuando están activadas).',
  staleButton: 'Ese botón ya no funciona; envía el comando de nuevo.',
  resetDone: 'Empezamos una conversación nueva. Tu próximo mensaje parte de cero.',
  unknownCommand: (name, help) => `No conozco el comando /${name}.\n\n${help}`,
  nothingToStop: 'No se está escribiendo nada ahora mismo, así que no hay nada que detener.',

  emptyAnswer: '(sin respuesta)',
  buttonsMessage: 'Más opciones:',
  supersededMessage: '…',
  interruptedNote: '(Esta respuesta se interrumpió. El mensaje se responderá de nuevo.)',
  stoppedNote: '(Respuesta detenida.)',

  commandsTitle: '**Comandos**',
  helpFooter: 'Todo lo demás que escribas lo responde el asistente.',
  commandDescriptions: {
    start: 'saludar y ver qué puedes preguntar',
    help: 'ver la lista de comandos',
    reset: 'empezar una conversación nueva (el asistente olvida esta)',
    listings: 'ver las propiedades, si quieres de una sola ciudad',
    stop: 'detener la respuesta que se está escribiendo',
    human: 'hablar con una persona',
  },
  listings: {
    header: (page, pages, total) =>
      `**Propiedades** · página ${count(page)} de ${count(pages)} (${count(total)} en total)`,
    headerInCity: (city, page, pages, total) =>
      `**Propiedades en ${city}** · página ${count(page)} de ${count(pages)} (${count(total)} en total)`,
    pastTheEnd: (pages, command) =>
      `Solo hay ${count(pages)} páginas de propiedades. Envía \`${command}\` para empezar de nuevo.`,
    pastTheEndInCity: (city, pages, command) =>
      `Solo hay ${count(pages)} páginas de propiedades en ${city}. Envía \`${command}\` para empezar de nuevo.`,
    noneFound: 'No se encontraron propiedades.',
    noneFoundInCity: (city) => `No se encontraron propiedades en ${city}. Envía \`/listings\` para verlas todas.`,
    previousButton: '« Anterior',
    nextButton: 'Siguiente »',
    nextPageHint: (command) => `\`${command}\` para la página siguiente`,
    previousPageHint: (command) => `\`${command}\` para la página anterior`,
    hints: (hints) => `Envía ${or(hints)}.`,
    untitled: 'Propiedad',
    bedrooms: (count) => `${count} hab.`,
    bathrooms: (count) => `${count} baños`,
    detailsLink: 'detalles',
    perMonth: '/mes',
  },

  media: {
    disabled: {
      image: 'Este chatbot no acepta fotos. Describe por escrito lo que necesitas.',
      video: 'Este chatbot no acepta videos. Describe por escrito lo que necesitas.',
      audio: 'Este chatbot no acepta mensajes de voz. Escribe tu pregunta, por favor.',
    },
    nothingAccepted: 'Este chatbot no acepta archivos. Escribe tu pregunta, por favor.',
    tooLarge: (noun, kind, limit) =>
      `${ThisOne(noun)} supera el límite de ${bytes(limit)} por ${UNITS[kind]}. Envía un archivo más pequeño.`,
    tooLargeOfSize: (noun, kind, limit, size) =>
      `${ThisOne(noun)} ocupa ${bytes(size)}; el límite es de ${bytes(limit)} por ${UNITS[kind]}.`,
    tooLargeToDownload: (noun, limit) =>
      `${ThisOne(noun)} es demasiado grande; en esta plataforma solo puedo descargar archivos de hasta ${bytes(limit)}. ` +
      'Envía un archivo más pequeño.',
    tooLargeToDownloadOfSize: (noun, limit, size) =>
      `${ThisOne(noun)} ocupa ${bytes(size)}; en esta plataforma solo puedo descargar archivos de hasta ${bytes(limit)}. ` +
      'Envía un archivo más pequeño.',
    tooLargeFile: (limit) =>
      `Este archivo es demasiado grande; el archivo más grande que puedo aceptar es de ${bytes(limit)}.`,
    tooLargeFileOfSize: (limit, size) =>
      `Este archivo ocupa ${bytes(size)}; el archivo más grande que puedo aceptar es de ${bytes(limit)}.`,
    tooLong: (noun, minutes) =>
      `${ThisOne(noun)} dura demasiado: puedo aceptar hasta unos ${count(minutes)} minutos de audio. Envía un audio más corto.`,
    mixed: 'Envía las fotos, un video y un mensaje de voz en mensajes separados; solo puedo aceptar un tipo a la vez.',
    tooMany: {
      image: (max) => `Envía como máximo ${count(max)} fotos en un mismo mensaje.`,
      video: 'Envía un solo video a la vez.',
      audio: 'Envía un solo mensaje de voz a la vez.',
    },
    sticker: 'No puedo leer stickers. Envía una foto o escribe tu pregunta.',
    animatedGif: 'Los GIF animados no son compatibles. Envía una imagen fija (PNG, JPEG, WEBP o GIF).',
    imageFormat: (ext) =>
      `Puedo leer imágenes PNG, JPEG, WEBP y GIF fijos, pero esta es ${ext.toUpperCase()}. Envíala como una foto normal.`,
    videoFormat: (ext) =>
      `Puedo leer videos MP4, MKV, AVI, FLV y MPEG, pero este es ${ext.toUpperCase()}. Conviértelo a MP4 y envíalo de nuevo.`,
    notMedia: (accepted) =>
      `No puedo leer este tipo de archivo. Puedo aceptar ${and(accepted.map((kind) => KINDS[kind]))}.`,
    notMediaOfType: (ext, accepted) =>
      `No puedo leer este tipo de archivo (${ext.toUpperCase()}). Puedo aceptar ${and(accepted.map((kind) => KINDS[kind]))}.`,
    undecodableAudio: (noun) =>
      `No pude reproducir ${thisOne(noun)}; parece que el archivo está dañado. Vuelve a grabarlo o a enviarlo.`,
    transcoderMissing: (ext) =>
      `Aquí no puedo convertir audio ${ext.toUpperCase()}. Graba un mensaje de voz o envía el audio en formato WAV.`,
    gone: (noun) =>
      `No pude leer ${thisOne(noun)}: el chat ya no tiene su archivo (caducó o se eliminó). Vuelve a enviar el archivo.`,
    unavailable: (noun) => `No pude descargar ${thisOne(noun)} del chat. Vuelve a enviar el archivo.`,
    answeredWithout: {
      one: 'Respondo a tu mensaje sin ese archivo.',
      many: 'Respondo a tu mensaje sin esos archivos.',
    },
    refusedByService: (noun, reason) =>
      `El asistente no aceptó ${thisOne(noun)}: ${reason} Describe por escrito lo que necesitas.`,
  },

  handoff: {
    defaultReply: 'He pedido a una persona que te ayude. Te responderá aquí en cuanto pueda.',
    botIsBack: 'Vuelves a hablar con el asistente. ¡Pregúntame lo que quieras!',
    alreadyWithAPerson: 'Ya se pidió ayuda a una persona; te responderá aquí.',
    offer: '¿Quieres hablar con una persona?',
    offerButton: 'Hablar con una persona',
    offerWithoutButtons: 'Escribe /human para hablar con una persona.',
  },
};

export const spanish: Language = {
  code: 'es',
  name: 'Spanish',
  locale: LOCALE,
  texts,
  number: count,
  bytes,
  nouns: NOUNS,
  units: UNITS,
  kinds: KINDS,
};
