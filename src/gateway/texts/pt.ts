/** Portuguese, as written in Brazil (addressing the user as "você"). */
import type { MediaKind, MediaNoun, UserTexts } from '../user-texts.js';
import { bytesIn, listIn, numberIn, type Language } from './language.js';

const LOCALE = 'pt-BR';
const count = numberIn(LOCALE);
const bytes = bytesIn(LOCALE, { bytes: 'bytes', kb: 'KB', mb: 'MB' });
const and = listIn(LOCALE, 'conjunction');
const or = listIn(LOCALE, 'disjunction');

const NOUNS: Record<MediaNoun, string> = {
  photo: 'foto',
  image: 'imagem',
  video: 'vídeo',
  'voice message': 'mensagem de voz',
  'audio file': 'arquivo de áudio',
  file: 'arquivo',
};
const FEMININE = new Set<MediaNoun>(['photo', 'image', 'voice message']);
/** "esta foto", "este vídeo". */
const thisOne = (noun: MediaNoun): string => `${FEMININE.has(noun) ? 'esta' : 'este'} ${NOUNS[noun]}`;
const ThisOne = (noun: MediaNoun): string => `${FEMININE.has(noun) ? 'Esta' : 'Este'} ${NOUNS[noun]}`;
const UNITS: Record<MediaKind, string> = { image: 'imagem', video: 'vídeo', audio: 'mensagem de áudio' };
const KINDS: Record<MediaKind, string> = { image: 'fotos', video: 'vídeos', audio: 'mensagens de voz' };

const texts: UserTexts = {
  welcomeDefault: 'Olá! Pergunte o que quiser, e farei o possível para ajudar.',
  upstreamDown: 'O assistente não está disponível agora; tente novamente daqui a pouco.',
  upstreamWaiting:
    'O assistente não está disponível agora. Sua mensagem está guardada, e vou respondê-la assim que o assistente voltar.',
  answerCutOff: 'O assistente parou antes de terminar esta resposta; pergunte novamente daqui a pouco.',
  poisonMessage: (tries) =>
    `Não foi possível responder a esta mensagem após ${count(tries)} tentativas; envie-a de novo de outro jeito (mais curta ou com outras palavras).`,
  upstreamRefused: 'O assistente não conseguiu responder a esta mensagem; reformule-a ou tente novamente mais tarde.',
  internalError: 'Algo deu errado do nosso lado ao responder; tente novamente daqui a pouco.',
  rateLimitedDefault: 'Você está enviando mensagens rápido demais; espere um pouco e tente novamente.',
  monthlyLimit: 'Este assistente atingiu o limite de mensagens deste mês; tente novamente no mês que vem.',
  answerDelayed:
    'Recebi sua mensagem. Um problema do nosso lado está atrasando a resposta; ela chegará aqui assim que isso for resolvido, não precisa enviá-la de novo.',
  queueFull: (waiting) => `Você tem ${count(waiting)} mensagens aguardando; espere as respostas.`,
  messageTooLong: (limit, length) =>
    `Sua mensagem é longa demais: consigo ler até ${count(limit)} caracteres por vez, e ela tem ${count(length)}. ` +
    'Encurte-a ou envie-a em partes.',
  nothingToAnswer: 'Aqui só consigo ler mensagens de texto (e imagens ou mensagens de voz quando estão ativadas).',
  staleButton: 'Esse botão não funciona mais; envie o comando novamente.',
  resetDone: 'Começamos uma nova conversa. Sua próxima mensagem começa do zero.',
  unknownCommand: (name, help) => `Não conheço o comando /${name}.\n\n${help}`,
  nothingToStop: 'Nada está sendo escrito agora, então não há nada para interromper.',

  emptyAnswer: '(sem resposta)',
  buttonsMessage: 'Mais opções:',
  supersededMessage: '…',
  interruptedNote: '(Esta resposta foi interrompida. A mensagem será respondida novamente.)',
  stoppedNote: '(Resposta interrompida.)',

  commandsTitle: '**Comandos**',
  helpFooter: 'Todo o resto que você escrever é respondido pelo assistente.',
  commandDescriptions: {
    start: 'dizer olá e ver o que perguntar',
    help: 'listar os comandos',
    reset: 'começar uma nova conversa (o assistente esquece esta)',
    listings: 'ver os imóveis, se quiser de uma só cidade',
    stop: 'interromper a resposta que está sendo escrita',
    human: 'falar com uma pessoa',
  },
  listings: {
    header: (page, pages, total) => `**Imóveis** · página ${count(page)} de ${count(pages)} (${count(total)} no total)`,
    headerInCity: (city, page, pages, total) =>
      `**Imóveis em ${city}** · página ${count(page)} de ${count(pages)} (${count(total)} no total)`,
    pastTheEnd: (pages, command) =>
      `Há apenas ${count(pages)} páginas de imóveis. Envie \`${command}\` para recomeçar.`,
    pastTheEndInCity: (city, pages, command) =>
      `Há apenas ${count(pages)} páginas de imóveis em ${city}. Envie \`${command}\` para recomeçar.`,
    noneFound: 'Nenhum imóvel encontrado.',
    noneFoundInCity: (city) => `Nenhum imóvel encontrado em ${city}. Envie \`/listings\` para ver todos os imóveis.`,
    previousButton: '« Anterior',
    nextButton: 'Próxima »',
    nextPageHint: (command) => `\`${command}\` para a próxima página`,
    previousPageHint: (command) => `\`${command}\` para a página anterior`,
    hints: (hints) => `Envie ${or(hints)}.`,
    untitled: 'Imóvel',
    bedrooms: (count) => `${count} qts`,
    bathrooms: (count) => `${count} banh.`,
    detailsLink: 'detalhes',
    perMonth: '/mês',
  },

  media: {
    disabled: {
      image: 'Este chatbot não aceita fotos. Descreva por escrito o que você precisa.',
      video: 'Este chatbot não aceita vídeos. Descreva por escrito o que você precisa.',
      audio: 'Este chatbot não aceita mensagens de voz. Digite sua pergunta, por favor.',
    },
    nothingAccepted: 'Este chatbot não aceita arquivos. Digite sua pergunta, por favor.',
    tooLarge: (noun, kind, limit) =>
      `${ThisOne(noun)} passa do limite de ${bytes(limit)} por ${UNITS[kind]}. Envie um arquivo menor.`,
    tooLargeOfSize: (noun, kind, limit, size) =>
      `${ThisOne(noun)} tem ${bytes(size)}; o limite é de ${bytes(limit)} por ${UNITS[kind]}.`,
    tooLargeToDownload: (noun, limit) =>
      `${ThisOne(noun)} é grande demais; nesta plataforma só consigo baixar arquivos de até ${bytes(limit)}. Envie um arquivo menor.`,
    tooLargeToDownloadOfSize: (noun, limit, size) =>
      `${ThisOne(noun)} tem ${bytes(size)}; nesta plataforma só consigo baixar arquivos de até ${bytes(limit)}. Envie um arquivo menor.`,
    tooLargeFile: (limit) => `Este arquivo é grande demais; o maior arquivo que consigo aceitar tem ${bytes(limit)}.`,
    tooLargeFileOfSize: (limit, size) =>
      `Este arquivo tem ${bytes(size)}; o maior arquivo que consigo aceitar tem ${bytes(limit)}.`,
    tooLong: (noun, minutes) =>
      `${ThisOne(noun)} dura demais: consigo aceitar até cerca de ${count(minutes)} minutos de áudio. Envie um áudio mais curto.`,
    mixed: 'Envie fotos, um vídeo e uma mensagem de voz em mensagens separadas; só consigo aceitar um tipo por vez.',
    tooMany: {
      image: (max) => `Envie no máximo ${count(max)} fotos em uma mensagem.`,
      video: 'Envie um vídeo por vez.',
      audio: 'Envie uma mensagem de voz por vez.',
    },
    sticker: 'Não consigo ler figurinhas. Envie uma foto ou digite sua pergunta.',
    animatedGif: 'GIFs animados não são aceitos. Envie uma imagem estática (PNG, JPEG, WEBP ou GIF).',
    imageFormat: (ext) =>
      `Consigo ler imagens PNG, JPEG, WEBP e GIF estáticos, mas esta é ${ext.toUpperCase()}. Envie-a como uma foto comum.`,
    videoFormat: (ext) =>
      `Consigo ler vídeos MP4, MKV, AVI, FLV e MPEG, mas este é ${ext.toUpperCase()}. Converta-o para MP4 e envie-o novamente.`,
    notMedia: (accepted) =>
      `Não consigo ler este tipo de arquivo. Consigo aceitar ${and(accepted.map((kind) => KINDS[kind]))}.`,
    notMediaOfType: (ext, accepted) =>
      `Não consigo ler este tipo de arquivo (${ext.toUpperCase()}). Consigo aceitar ${and(accepted.map((kind) => KINDS[kind]))}.`,
    undecodableAudio: (noun) =>
      `Não consegui reproduzir ${thisOne(noun)}; o arquivo parece estar danificado. Grave ou envie de novo.`,
    transcoderMissing: (ext) =>
      `Não consigo converter áudio ${ext.toUpperCase()} aqui. Grave uma mensagem de voz ou envie o áudio em WAV.`,
    gone: (noun) =>
      `Não consegui ler ${thisOne(noun)}: o chat não tem mais o arquivo (ele expirou ou foi apagado). Envie de novo.`,
    unavailable: (noun) => `Não consegui baixar ${thisOne(noun)} do chat. Envie de novo.`,
    answeredWithout: {
      one: 'Vou responder sua mensagem sem esse arquivo.',
      many: 'Vou responder sua mensagem sem esses arquivos.',
    },
    refusedByService: (noun, reason) =>
      `O assistente não aceitou ${thisOne(noun)}: ${reason} Descreva por escrito o que você precisa.`,
  },

  handoff: {
    defaultReply: 'Pedi a uma pessoa para ajudar você. Ela vai responder aqui assim que puder.',
    botIsBack: 'Você está falando com o assistente de novo. Pergunte o que quiser!',
    alreadyWithAPerson: 'Já pedimos ajuda a uma pessoa; ela vai responder aqui.',
    offer: 'Quer falar com uma pessoa?',
    offerButton: 'Falar com uma pessoa',
    offerWithoutButtons: 'Digite /human para falar com uma pessoa.',
  },
};

export const portuguese: Language = {
  code: 'pt',
  name: 'Portuguese',
  locale: LOCALE,
  texts,
  number: count,
  bytes,
  nouns: NOUNS,
  units: UNITS,
  kinds: KINDS,
};
