// A file of its own (the worker's case is another) so the two ten-kill runs take two of the test
// command's slots at once instead of one after the other.
import { killTenTimes } from './transcode-kills';

killTenTimes('a server with its embedded worker');
