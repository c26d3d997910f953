/**
 * Where each operation lives on the service. White-label hosts serve the same API
 * under their own domain, and a few may move a path, so every path is configurable.
 */
export interface UpstreamPaths {
  edit: string;
  clientAsk: string;
  realEstateCreate: string;
  realEstateList: string;
  realEstateDelete: string;
  getSession: string;
  /** Called with GET (the docs' examples send GET with an empty JSON body). */
  modelList: string;
  getPreUploadUrl: string;
  addChatbot: string;
  removeChatbot: string;
}

export const DEFAULT_UPSTREAM_PATHS: Readonly<UpstreamPaths> = Object.freeze({
  edit: '/chat/Chatbot/Edit',
  clientAsk: '/chat/Chat/ClientAsk',
  realEstateCreate: '/chat/Chatbot/RealEstateCreate',
  realEstateList: '/chat/Chatbot/RealEstateList',
  realEstateDelete: '/chat/Chatbot/RealEstateDelete',
  getSession: '/chat/Chatbot/GetSession',
  modelList: '/chat/Chatbot/ModelList',
  getPreUploadUrl: '/chat/User/GetPreUploadUrl',
  addChatbot: '/chat/Chatbot/Add',
  removeChatbot: '/chat/Chatbot/Remove',
});

/** The name an operation carries in errors and logs (the last segment of its documented path). */
export type UpstreamOperation =
  | 'Edit'
  | 'ClientAsk'
  | 'RealEstateCreate'
  | 'RealEstateList'
  | 'RealEstateDelete'
  | 'GetSession'
  | 'ModelList'
  | 'GetPreUploadUrl'
  | 'UploadPut'
  | 'UploadConfirm'
  | 'Add'
  | 'Remove';

/**
 * Joins a base URL (which may carry a path prefix, e.g. `https://host/api`) and an
 * operation path without doubling or dropping slashes.
 */
export function joinUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}
