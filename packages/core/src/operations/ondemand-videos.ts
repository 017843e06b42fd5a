import { object } from 'superstruct';
import { listParams, type ListParams } from '../engine/list';
import { noContent, ok, operation } from '../engine/operation';
import { eq } from '../store/filters';
import { publishDuePages } from '../domain/ondemand-lifecycle';
import { loadOwnedPage, loadVisiblePage } from '../domain/ondemand-pages';
import type { VideoKind } from '../records/ondemand';
import { removePageVideo } from '../domain/ondemand-video-rows';
import { loadPageVideo, pageVideoFields, pageVideoSorts, putPageVideo, videoKinds, type PageVideoSort } from '../domain/ondemand-videos';
import { listPageVideos, representPageVideos } from './represent-ondemand';
import { representContext } from './represent-context';
import { loadVisibleVideo } from '../domain/videos';
import { pageVideoKind } from '../representations/ondemand-video';
import { viewParams } from '../domain/video-fields';

export const putPageVideoOperation = operation({
  id: 'ondemand.pages.videos.put',
  summary: "Put one of the owner's videos on an On Demand page as its main video, an extra or the trailer (or change how it is there)",
  method: 'PUT',
  paths: ['/ondemand/pages/{ondemand_id}/videos/{video_id}'],
  scope: 'edit',
  params: pageVideoFields,
  async handle(ctx) {
    const page = await loadOwnedPage(ctx, 'add videos to the page');
    const row = await putPageVideo(ctx, page, ctx.params);
    // A video that is already available may be the last one a publish_when_ready page waited for.
    await publishDuePages(ctx);
    return ok((await representPageVideos(ctx, [row]))[0], pageVideoKind(representContext(ctx)));
  },
});

export const getPageVideo = operation({
  id: 'ondemand.pages.videos.get',
  summary: 'Get a video of an On Demand page (a Clip since 3.4)',
  method: 'GET',
  paths: ['/ondemand/pages/{ondemand_id}/videos/{video_id}'],
  params: viewParams,
  async handle(ctx) {
    const page = await loadVisiblePage(ctx);
    const row = await loadPageVideo(ctx, page);
    await loadVisibleVideo(ctx, row.video_id, ctx.params.password);
    return ok((await representPageVideos(ctx, [row]))[0], pageVideoKind(representContext(ctx)));
  },
});

export const removePageVideoOperation = operation({
  id: 'ondemand.pages.videos.delete',
  summary: 'Take a video off an On Demand page (the video itself stays)',
  method: 'DELETE',
  paths: ['/ondemand/pages/{ondemand_id}/videos/{video_id}'],
  scope: 'edit',
  async handle(ctx) {
    const page = await loadOwnedPage(ctx, 'remove videos from the page');
    await removePageVideo(ctx.store, await loadPageVideo(ctx, page));
    return noContent();
  },
});

const videoListParams = object(listParams({ sort: Object.keys(pageVideoSorts) as PageVideoSort[], filter: videoKinds }));

export const listPageVideosOperation = operation({
  id: 'ondemand.pages.videos.list',
  summary: "List the videos of an On Demand page that the caller may see, in the page's order",
  method: 'GET',
  paths: ['/ondemand/pages/{ondemand_id}/videos'],
  params: videoListParams,
  async handle(ctx) {
    const page = await loadVisiblePage(ctx);
    return listPageVideos(ctx, eq('page_id', page.id), ctx.params as ListParams<PageVideoSort, VideoKind>);
  },
});

export const ondemandVideoOperations = [putPageVideoOperation, getPageVideo, removePageVideoOperation, listPageVideosOperation];
