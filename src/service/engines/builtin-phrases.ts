import { mediaPhrases, type MediaPhrases } from './builtin-media-phrases.js';

/** The builtin engine's fixed sentences, per AIResponseLanguage; English is the fallback. */
export interface Phrases {
  media: MediaPhrases;
  greeting: string;
  found(count: number): string;
  more(count: number): string;
  noneFound(criteria: string): string;
  noListings: string;
  /** After noneFound for a place no listing is in: where the listings are. */
  listingsAreIn(cities: string[]): string;
  notUnderstood(cities: string[]): string;
  mediaOnly: string;
  forSale: string;
  forRent: string;
  perMonth: string;
  beds: string;
  baths: string;
  atLeastBeds(n: number): string;
  atLeastBaths(n: number): string;
  under(price: string): string;
  over(price: string): string;
  inCity(city: string): string;
}

const list = (items: string[], and: string): string =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} ${and} ${items[items.length - 1]}`;

const english: Phrases = {
  media: mediaPhrases.english,
  listingsAreIn: (cities) => `Our listings are in ${list(cities, 'and')}.`,
  greeting: 'Hello! How can I help you today?',
  found: (n) => (n === 1 ? 'I found 1 listing that matches:' : `I found ${n} listings that match:`),
  more: (n) => `…and ${n} more. Tell me more about what you need to narrow it down.`,
  noneFound: (criteria) => `I could not find any listing ${criteria}.`,
  noListings: 'There are no listings available at the moment.',
  notUnderstood: (cities) =>
    `I'm sorry, I can only answer questions about our listings${cities.length ? ` in ${list(cities, 'and')}` : ''}: ` +
    'ask me about a city, bedrooms, bathrooms, price, rent or sale, or an MLS number.',
  mediaOnly: "Thanks for the file. I can't look at files myself; please describe what you are looking for in words.",
  forSale: 'for sale',
  forRent: 'for rent',
  perMonth: '/month',
  beds: 'bd',
  baths: 'ba',
  atLeastBeds: (n) => `with at least ${n} bedrooms`,
  atLeastBaths: (n) => `with at least ${n} bathrooms`,
  under: (p) => `under ${p}`,
  over: (p) => `over ${p}`,
  inCity: (c) => `in ${c}`,
};

const spanish: Phrases = {
  media: mediaPhrases.spanish,
  listingsAreIn: (cities) => `Nuestras propiedades están en ${list(cities, 'y')}.`,
  greeting: '¡Hola! ¿En qué puedo ayudarte hoy?',
  found: (n) => (n === 1 ? 'Encontré 1 propiedad que coincide:' : `Encontré ${n} propiedades que coinciden:`),
  more: (n) => `…y ${n} más. Cuéntame más para acotar la búsqueda.`,
  noneFound: (criteria) => `No encontré ninguna propiedad ${criteria}.`,
  noListings: 'No hay propiedades disponibles en este momento.',
  notUnderstood: (cities) =>
    `Lo siento, solo puedo responder sobre nuestras propiedades${cities.length ? ` en ${list(cities, 'y')}` : ''}: ` +
    'pregúntame por ciudad, habitaciones, baños, precio, alquiler o venta, o un número MLS.',
  mediaOnly: 'Gracias por el archivo. No puedo ver archivos; describe con palabras lo que buscas.',
  forSale: 'en venta',
  forRent: 'en alquiler',
  perMonth: '/mes',
  beds: 'hab.',
  baths: 'baños',
  atLeastBeds: (n) => `con al menos ${n} habitaciones`,
  atLeastBaths: (n) => `con al menos ${n} baños`,
  under: (p) => `por menos de ${p}`,
  over: (p) => `por más de ${p}`,
  inCity: (c) => `en ${c}`,
};

const french: Phrases = {
  media: mediaPhrases.french,
  listingsAreIn: (cities) => `Nos annonces sont à ${list(cities, 'et')}.`,
  greeting: "Bonjour ! Comment puis-je vous aider aujourd'hui ?",
  found: (n) => (n === 1 ? "J'ai trouvé 1 annonce correspondante :" : `J'ai trouvé ${n} annonces correspondantes :`),
  more: (n) => `…et ${n} de plus. Précisez votre recherche pour affiner.`,
  noneFound: (criteria) => `Je n'ai trouvé aucune annonce ${criteria}.`,
  noListings: "Il n'y a aucune annonce disponible pour le moment.",
  notUnderstood: (cities) =>
    `Désolé, je ne peux répondre qu'aux questions sur nos annonces${cities.length ? ` à ${list(cities, 'et')}` : ''} : ` +
    'ville, chambres, salles de bain, prix, location ou vente, ou numéro MLS.',
  mediaOnly: 'Merci pour le fichier. Je ne peux pas lire les fichiers ; décrivez ce que vous cherchez avec des mots.',
  forSale: 'à vendre',
  forRent: 'à louer',
  perMonth: '/mois',
  beds: 'ch.',
  baths: 'sdb',
  atLeastBeds: (n) => `avec au moins ${n} chambres`,
  atLeastBaths: (n) => `avec au moins ${n} salles de bain`,
  under: (p) => `à moins de ${p}`,
  over: (p) => `à plus de ${p}`,
  inCity: (c) => `à ${c}`,
};

const german: Phrases = {
  media: mediaPhrases.german,
  listingsAreIn: (cities) => `Unsere Angebote liegen in ${list(cities, 'und')}.`,
  greeting: 'Hallo! Wie kann ich Ihnen heute helfen?',
  found: (n) => (n === 1 ? 'Ich habe 1 passendes Angebot gefunden:' : `Ich habe ${n} passende Angebote gefunden:`),
  more: (n) => `…und ${n} weitere. Beschreiben Sie genauer, was Sie suchen.`,
  noneFound: (criteria) => `Ich habe kein Angebot ${criteria} gefunden.`,
  noListings: 'Derzeit sind keine Angebote verfügbar.',
  notUnderstood: (cities) =>
    `Entschuldigung, ich kann nur Fragen zu unseren Angeboten${cities.length ? ` in ${list(cities, 'und')}` : ''} ` +
    'beantworten: Stadt, Schlafzimmer, Bäder, Preis, Miete oder Kauf oder MLS-Nummer.',
  mediaOnly: 'Danke für die Datei. Ich kann keine Dateien ansehen; beschreiben Sie bitte in Worten, was Sie suchen.',
  forSale: 'zu verkaufen',
  forRent: 'zu vermieten',
  perMonth: '/Monat',
  beds: 'SZ',
  baths: 'Bad',
  atLeastBeds: (n) => `mit mindestens ${n} Schlafzimmern`,
  atLeastBaths: (n) => `mit mindestens ${n} Bädern`,
  under: (p) => `unter ${p}`,
  over: (p) => `über ${p}`,
  inCity: (c) => `in ${c}`,
};

const italian: Phrases = {
  media: mediaPhrases.italian,
  listingsAreIn: (cities) => `I nostri annunci sono a ${list(cities, 'e')}.`,
  greeting: 'Ciao! Come posso aiutarti oggi?',
  found: (n) => (n === 1 ? 'Ho trovato 1 annuncio corrispondente:' : `Ho trovato ${n} annunci corrispondenti:`),
  more: (n) => `…e altri ${n}. Dimmi di più per restringere la ricerca.`,
  noneFound: (criteria) => `Non ho trovato nessun annuncio ${criteria}.`,
  noListings: 'Al momento non ci sono annunci disponibili.',
  notUnderstood: (cities) =>
    `Mi dispiace, posso rispondere solo su i nostri annunci${cities.length ? ` a ${list(cities, 'e')}` : ''}: ` +
    'città, camere, bagni, prezzo, affitto o vendita, o numero MLS.',
  mediaOnly: 'Grazie per il file. Non posso vedere i file; descrivi a parole cosa cerchi.',
  forSale: 'in vendita',
  forRent: 'in affitto',
  perMonth: '/mese',
  beds: 'camere',
  baths: 'bagni',
  atLeastBeds: (n) => `con almeno ${n} camere`,
  atLeastBaths: (n) => `con almeno ${n} bagni`,
  under: (p) => `sotto ${p}`,
  over: (p) => `sopra ${p}`,
  inCity: (c) => `a ${c}`,
};

const portuguese: Phrases = {
  media: mediaPhrases.portuguese,
  listingsAreIn: (cities) => `Nossos imóveis ficam em ${list(cities, 'e')}.`,
  greeting: 'Olá! Como posso ajudar você hoje?',
  found: (n) => (n === 1 ? 'Encontrei 1 imóvel correspondente:' : `Encontrei ${n} imóveis correspondentes:`),
  more: (n) => `…e mais ${n}. Conte-me mais para refinar a busca.`,
  noneFound: (criteria) => `Não encontrei nenhum imóvel ${criteria}.`,
  noListings: 'Não há imóveis disponíveis no momento.',
  notUnderstood: (cities) =>
    `Desculpe, só posso responder sobre nossos imóveis${cities.length ? ` em ${list(cities, 'e')}` : ''}: ` +
    'cidade, quartos, banheiros, preço, aluguel ou venda, ou número MLS.',
  mediaOnly: 'Obrigado pelo arquivo. Não consigo ver arquivos; descreva em palavras o que você procura.',
  forSale: 'à venda',
  forRent: 'para alugar',
  perMonth: '/mês',
  beds: 'qts',
  baths: 'banh.',
  atLeastBeds: (n) => `com pelo menos ${n} quartos`,
  atLeastBaths: (n) => `com pelo menos ${n} banheiros`,
  under: (p) => `abaixo de ${p}`,
  over: (p) => `acima de ${p}`,
  inCity: (c) => `em ${c}`,
};

const BY_NAME: Record<string, Phrases> = {
  english,
  en: english,
  spanish,
  español: spanish,
  espanol: spanish,
  castellano: spanish,
  es: spanish,
  french,
  français: french,
  francais: french,
  fr: french,
  german,
  deutsch: german,
  de: german,
  italian,
  italiano: italian,
  it: italian,
  portuguese,
  português: portuguese,
  portugues: portuguese,
  pt: portuguese,
};

export const BUILTIN_LANGUAGES = ['English', 'Spanish', 'French', 'German', 'Italian', 'Portuguese'];

export function phrasesFor(language: string): Phrases {
  return BY_NAME[language.trim().toLowerCase()] ?? english;
}
