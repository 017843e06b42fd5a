// The transport lives with the client in @reelbase/http; commands import it from here.
export { formBody, jsonBody, pathWithQuery, requestHeaders, type Transport, type TransportRequest, type TransportResponse } from '@reelbase/http';
