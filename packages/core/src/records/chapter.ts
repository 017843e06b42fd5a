/** A chapter of a video: a titled point `timecode` seconds from its start. */
export type ChapterRecord = {
  id: string;
  video_id: string;
  title: string;
  timecode: number;
  created_time: string;
  modified_time: string;
};
