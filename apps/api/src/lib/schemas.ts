export { idParams, pagingQuery, recordId } from '@tramo/domain';
