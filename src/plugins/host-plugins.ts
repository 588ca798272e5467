/**
 * Every privileged plugin and host modifier, declared: one flat table, by family (the folder its
 * declaration is in, which `smartcage plugins` and docs/reference.md show). The declaration is the
 * one definition: its host implementation (src/host-plugins/<family>/<name>.ts) is written
 * against it with `implement`, and `npm run reference` lists those in the bridge's table
 * (src/host-plugins/table.ts), failing when a declaration has no implementation or the
 * other way round. Adding a host plugin: docs/adding-plugins.md.
 */
import type { Plugin } from './types.js';
import sleep from './host-clock/sleep.js';
import secret from './host-secrets/secret.js';
import assignGlobals from './host-request/assign_globals.js';
import rcmsEncrypt from './host-crypto/rcms_encrypt.js';
import getCountryFromIP from './host-geo/getCountryFromIP.js';
import readFile from './host-files/read_file.js';
import readDir from './host-files/read_dir.js';
import writeFile from './host-files/write_file.js';
import putFile from './host-files/put_file.js';
import saveFile from './host-files/save_file.js';
import removeFile from './host-files/remove_file.js';
import removeDir from './host-files/remove_dir.js';
import renameFile from './host-files/rename_file.js';
import storageUrl from './host-files/storage_url.js';
import copyS3TempFile from './host-files/copy_s3_temp_file.js';
import getFile from './host-files/get_file.js';
import api from './host-api/api.js';
import apiInternal from './host-api/api_internal.js';
import apiMng from './host-api/api_mng.js';
import apiToken from './host-api/api_token.js';
import cookie from './host-api/cookie.js';
import sendmail from './host-mail/sendmail.js';
import assignTopicsDetail from './host-content/assign_topics_detail.js';
import assignTopicsCategoryList from './host-content/assign_topics_category_list.js';
import incrementCounter from './host-content/increment_counter.js';
import updateCounter from './host-content/update_counter.js';
import syncCounter from './host-content/sync_counter.js';
import assignCsvTable from './host-content/assign_csv_table.js';
import childSite from './host-content/child_site.js';
import apiMethod from './host-content/api_method.js';
import assignMemberDetail from './host-members/assign_member_detail.js';
import assignGroupNm from './host-members/assign_group_nm.js';
import refreshCs from './host-members/refresh_cs.js';
import assignTagCategoryList from './host-tags/assign_tag_category_list.js';
import assignTagList from './host-tags/assign_tag_list.js';
import assignRelationTagList from './host-tags/assign_relation_tag_list.js';
import assignNewCommentList from './host-community/assign_new_comment_list.js';
import assignFavoriteCnt from './host-community/assign_favorite_cnt.js';
import assignMyFavoriteCnt from './host-community/assign_my_favorite_cnt.js';
import login from './host-session/login.js';
import logout from './host-session/logout.js';
import assignApiCredential from './host-session/assign_api_credential.js';
import generatePdf from './host-documents/generate_pdf.js';
import detectDocumentText from './host-documents/detect_document_text.js';
import gzip from './host-archives/gzip.js';
import zip from './host-archives/zip.js';
import unzip from './host-archives/unzip.js';
import purgeCdnCache from './host-webops/purge_cdn_cache.js';
import kickSpider from './host-webops/kick_spider.js';
import repoDeploy from './host-webops/repo_deploy.js';
import siteSync from './host-sync/site_sync.js';
import batch from './host-batches/batch.js';
import backup from './host-backup/backup.js';
import backupDelete from './host-backup/backup_delete.js';
import chatGetMessage from './host-integrations/chat_get_message.js';
import chatPostMessage from './host-integrations/chat_post_message.js';
import chatTeamInfo from './host-integrations/chat_team_info.js';
import socialPostMessage from './host-integrations/social_post_message.js';
import cloudfnToken from './host-integrations/cloudfn_token.js';
import cloudpubsubPublish from './host-integrations/cloudpubsub_publish.js';
import webanalytics from './host-integrations/webanalytics.js';

export const HOST_FAMILIES: Readonly<Record<string, readonly Plugin[]>> = {
  'host-clock': [sleep],
  'host-secrets': [secret],
  'host-request': [assignGlobals],
  'host-crypto': [rcmsEncrypt],
  'host-geo': [getCountryFromIP],
  'host-files': [
    readFile,
    readDir,
    writeFile,
    putFile,
    saveFile,
    removeFile,
    removeDir,
    renameFile,
    storageUrl,
    copyS3TempFile,
    getFile,
  ],
  'host-api': [api, apiInternal, apiMng, apiToken, cookie],
  'host-mail': [sendmail],
  'host-content': [
    assignTopicsDetail,
    assignTopicsCategoryList,
    incrementCounter,
    updateCounter,
    syncCounter,
    assignCsvTable,
    childSite,
    apiMethod,
  ],
  'host-members': [assignMemberDetail, assignGroupNm, refreshCs],
  'host-tags': [assignTagCategoryList, assignTagList, assignRelationTagList],
  'host-community': [assignNewCommentList, assignFavoriteCnt, assignMyFavoriteCnt],
  'host-session': [login, logout, assignApiCredential],
  'host-documents': [generatePdf, detectDocumentText],
  'host-archives': [gzip, zip, unzip],
  'host-webops': [purgeCdnCache, kickSpider, repoDeploy],
  'host-sync': [siteSync],
  'host-batches': [batch],
  'host-backup': [backup, backupDelete],
  'host-integrations': [
    chatGetMessage,
    chatPostMessage,
    chatTeamInfo,
    socialPostMessage,
    cloudfnToken,
    cloudpubsubPublish,
    webanalytics,
  ],
};
