export { createClient, resolvePath, flatten, ClientUsageError, type Client, type ClientOptions, type RequestOptions, type CallParams, type CallOptions } from './client';
export { httpTransport, InvalidBaseUrlError } from './http-transport';
export { inProcessTransport } from './in-process-transport';
export { formBody, jsonBody, pathWithQuery, requestHeaders, type Transport, type TransportRequest, type TransportResponse } from './transport';
