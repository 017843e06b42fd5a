import { by } from '../engine/list';

/** The sorts every group list offers; `GET /groups` adds followers (members) and relevant. */
export const groupSorts = {
  alphabetical: by('name', 'asc'),
  date: by('created_time', 'desc'),
  members: by('members_total', 'desc'),
  videos: by('videos_total', 'desc'),
};
