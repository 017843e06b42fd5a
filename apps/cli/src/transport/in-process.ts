export { inProcessTransport } from '@reelbase/http';
