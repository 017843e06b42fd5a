// A file of its own (the server's case is another): see transcode-kills-server.test.ts.
import { killTenTimes } from './transcode-kills';

killTenTimes('a worker beside a server');
