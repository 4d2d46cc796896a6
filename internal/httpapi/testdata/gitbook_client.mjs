// Drives a folio server with the official GitBook API client (@gitbook/api),
// as a script written for GitBook would, by changing the endpoint only.
// TestOfficialClient runs it with:
//   GITBOOK_CLIENT  path of the client's dist/index.js
//   FOLIO_URL       the server's base URL (without /v1)
//   FOLIO_TOKEN     an API token of an organization admin
//   FOLIO_ORG       that organization's id
// It prints one line per check and exits non-zero at the first failure.
import { pathToFileURL } from "node:url";

const { GitBookAPI, GitBookAPIError } = await import(pathToFileURL(process.env.GITBOOK_CLIENT).href);
const api = new GitBookAPI({ endpoint: process.env.FOLIO_URL, authToken: process.env.FOLIO_TOKEN });
const org = process.env.FOLIO_ORG;

let checks = 0;
function check(what, ok, got) {
  if (!ok) {
    console.error(`FAIL ${what}: ${JSON.stringify(got)}`);
    process.exit(1);
  }
  checks++;
  console.log(`ok ${what}`);
}

const user = (await api.user.getAuthenticatedUser()).data;
check("user.getAuthenticatedUser", user.object === "user" && typeof user.id === "string", user);

const orgs = (await api.orgs.listOrganizationsForAuthenticatedUser({ limit: 10 })).data;
check("orgs.listOrganizationsForAuthenticatedUser", orgs.items.some((o) => o.id === org) && orgs.count >= 1, orgs);

const renamed = (await api.orgs.updateOrganizationById(org, { title: "Client check" })).data;
check("orgs.updateOrganizationById", renamed.id === org && renamed.title === "Client check", renamed);

const members = (await api.orgs.listMembersInOrganizationById(org, { limit: 1 })).data;
check("orgs.listMembersInOrganizationById", members.items.length === 1 && members.count === 1 && !members.next, members);

const space = (await api.orgs.createSpace(org, { title: "Handbook" })).data;
check("orgs.createSpace", space.object === "space" && space.title === "Handbook", space);

const markdown = "# Pelicans\n\nThe pelican keeps fish in its **pouch**.\n\n## Flight\n\nPelicans glide over water.\n";
const imported = (await api.spaces.importContent(space.id, {
  source: "markdown",
  url: "data:text/markdown;base64," + Buffer.from(markdown).toString("base64"),
})).data;
check("spaces.importContent", typeof imported.revision === "string" && imported.importedResources === 1, imported);

const revision = (await api.spaces.getCurrentRevision(space.id)).data;
check("spaces.getCurrentRevision", revision.object === "revision" && revision.id === imported.revision && revision.pages.length === 1, revision);
const pageId = revision.pages[0].id;

const pages = (await api.spaces.listPages(space.id)).data;
check("spaces.listPages", pages.pages.length === 1 && pages.pages[0].title === "Pelicans", pages);

const page = (await api.spaces.getPageById(space.id, pageId, { format: "markdown" })).data;
check("spaces.getPageById (markdown)", page.id === pageId && page.markdown.includes("**pouch**"), page);

const doc = (await api.spaces.getPageById(space.id, pageId, { format: "document", metadata: false })).data;
check("spaces.getPageById (document)", doc.document && doc.document.object === "document", doc);

const byPath = (await api.spaces.getPageByPath(space.id, page.path)).data;
check("spaces.getPageByPath", byPath.id === pageId, byPath);

const old = (await api.spaces.getRevisionById(space.id, imported.revision)).data;
check("spaces.getRevisionById", old.id === imported.revision, old);

const hits = (await api.spaces.searchSpaceContent(space.id, { query: "glide" })).data;
check("spaces.searchSpaceContent", hits.items.length === 1 && hits.items[0].id === pageId &&
  hits.items[0].sections.some((s) => s.title === "Flight"), hits);

const orgHits = (await api.orgs.searchOrganizationContent(org, { query: "pelican" })).data;
check("orgs.searchOrganizationContent", orgHits.items.length === 1 && orgHits.items[0].id === space.id, orgHits);

const links = (await api.spaces.listSpaceLinks(space.id)).data;
check("spaces.listSpaceLinks", Array.isArray(links.items) && typeof links.stats === "object", links);

const files = (await api.spaces.listFiles(space.id, { limit: 5 })).data;
check("spaces.listFiles", Array.isArray(files.items) && files.count === 0, files);

const template = await api.spaces.applyTemplateToSpace(space.id, { id: "blank" });
check("spaces.applyTemplateToSpace", template.status === 204, template.status);

// Spaces, collections, teams and permissions.
const same = (await api.users.getUserById(user.id)).data;
check("users.getUserById", same.id === user.id, same);

const me = (await api.orgs.getMemberInOrganizationById(org, user.id)).data;
check("orgs.getMemberInOrganizationById", me.user.id === user.id && me.role === "admin", me);

const collection = (await api.orgs.createCollection(org, { title: "Guides" })).data;
check("orgs.createCollection", collection.object === "collection" && collection.title === "Guides", collection);

const retitled = (await api.collections.updateCollectionById(collection.id, { title: "User guides" })).data;
check("collections.updateCollectionById", retitled.title === "User guides", retitled);

const moved = (await api.spaces.moveSpace(space.id, { parent: collection.id })).data;
check("spaces.moveSpace", moved.id === space.id && moved.parent === collection.id, moved);

const inCollection = (await api.collections.listSpacesInCollectionById(collection.id)).data;
check("collections.listSpacesInCollectionById", inCollection.items.length === 1 && inCollection.items[0].id === space.id, inCollection);

const collections = (await api.orgs.listCollectionsInOrganizationById(org)).data;
check("orgs.listCollectionsInOrganizationById", collections.items.some((c) => c.id === collection.id), collections);

const updated = (await api.spaces.updateSpaceById(space.id, { title: "Bird handbook" })).data;
check("spaces.updateSpaceById", updated.title === "Bird handbook", updated);

const copy = (await api.spaces.duplicateSpace(space.id)).data;
check("spaces.duplicateSpace", copy.id !== space.id && copy.object === "space", copy);

const copyPages = (await api.spaces.listPages(copy.id)).data;
check("the duplicate has the content", copyPages.pages.length === (await api.spaces.listPages(space.id)).data.pages.length, copyPages);

const deleted = await api.spaces.deleteSpaceById(copy.id);
check("spaces.deleteSpaceById", deleted.status === 204, deleted.status);

const restored = (await api.spaces.restoreSpace(copy.id)).data;
check("spaces.restoreSpace", restored.id === copy.id, restored);

const spaces = (await api.orgs.listSpacesInOrganizationById(org, { limit: 1 })).data;
check("orgs.listSpacesInOrganizationById (limit 1)", spaces.items.length === 1 && spaces.count >= 2 && spaces.next && spaces.next.page, spaces);
const rest = (await api.orgs.listSpacesInOrganizationById(org, { limit: 1, page: spaces.next.page })).data;
check("orgs.listSpacesInOrganizationById (next page)", rest.items.length === 1 && rest.items[0].id !== spaces.items[0].id, rest);

const team = (await api.orgs.createOrganizationTeam(org, { title: "Writers" })).data;
check("orgs.createOrganizationTeam", team.title === "Writers" && typeof team.id === "string", team);

const renamedTeam = (await api.orgs.updateTeamInOrganizationById(org, team.id, { title: "Editors" })).data;
check("orgs.updateTeamInOrganizationById", renamedTeam.title === "Editors", renamedTeam);

const teams = (await api.orgs.listTeamsInOrganizationById(org)).data;
check("orgs.listTeamsInOrganizationById", teams.items.some((t) => t.id === team.id), teams);

await api.orgs.addMemberToOrganizationTeamById(org, team.id, user.id, {});
const teamMembers = (await api.orgs.listTeamMembersInOrganizationById(org, team.id)).data;
check("orgs.addMemberToOrganizationTeamById", teamMembers.items.some((m) => m.organization.user.id === user.id), teamMembers);

const granted = await api.spaces.inviteToSpace(space.id, { role: "edit", teams: [team.id] });
check("spaces.inviteToSpace", granted.status === 204, granted.status);

const userPerms = (await api.spaces.listUserPermissionsInSpace(space.id)).data;
check("spaces.listUserPermissionsInSpace", Array.isArray(userPerms.items), userPerms);

const removedTeam = await api.orgs.removeTeamFromOrganizationById(org, team.id);
check("orgs.removeTeamFromOrganizationById", removedTeam.status === 204, removedTeam.status);

const removedCollection = await api.collections.deleteCollectionById(collection.id);
check("collections.deleteCollectionById", removedCollection.status === 204, removedCollection.status);

const instructions = (await api.orgs.getOrganizationAgentInstructions(org)).data;
check("orgs.getOrganizationAgentInstructions (none set)", instructions.object === "agent-instructions" &&
  instructions.instructions.object === "document", instructions);

const memberSpaces = (await api.orgs.listSpacesForOrganizationMember(org, user.id, { limit: 100 })).data;
check("orgs.listSpacesForOrganizationMember", memberSpaces.items.some((i) => i.space.id === space.id && i.permission === "admin"),
  memberSpaces);

// Change requests: open one, write into it, review and merge it.
const cr = (await api.spaces.createChangeRequest(space.id, { subject: "Add herons" })).data;
check("spaces.createChangeRequest", cr.object === "change-request" && cr.number >= 1 && cr.revision === cr.revisionInitial, cr);
const crImport = (await api.spaces.importContentInChangeRequest(space.id, cr.id, {
  source: "markdown",
  url: "data:text/markdown;base64," + Buffer.from("# Herons\n\nHerons wade.\n").toString("base64"),
})).data;
check("spaces.importContentInChangeRequest", typeof crImport.revision === "string", crImport);
const byNumber = (await api.spaces.getChangeRequestById(space.id, String(cr.number))).data;
check("spaces.getChangeRequestById (by number)", byNumber.id === cr.id && byNumber.revision === crImport.revision, byNumber);
const openCRs = (await api.spaces.listChangeRequestsForSpace(space.id, {})).data;
check("spaces.listChangeRequestsForSpace", openCRs.items.some((c) => c.id === cr.id), openCRs);
const review = (await api.spaces.submitChangeRequestReview(space.id, cr.id, { status: "approved" })).data;
check("spaces.submitChangeRequestReview", review.status === "approved", review);
const merged = (await api.spaces.mergeChangeRequest(space.id, cr.id)).data;
check("spaces.mergeChangeRequest", merged.result === "merge" && typeof merged.revision === "string", merged);

// Comments with a reply and a reaction.
const comment = (await api.spaces.postCommentInSpace(space.id, { body: { markdown: "Is this **right**?" } })).data;
check("spaces.postCommentInSpace", comment.object === "comment" && comment.body.markdown.includes("right"), comment);
const reacted = (await api.spaces.updateCommentInSpace(space.id, comment.id, { addedReactions: ["👍"], resolved: true })).data;
check("spaces.updateCommentInSpace", reacted.status === "resolved" && reacted.reactions[0].count === 1, reacted);
const reply = (await api.spaces.postCommentReplyInSpace(space.id, comment.id, { body: { markdown: "Yes." } })).data;
check("spaces.postCommentReplyInSpace", reply.object === "comment-reply", reply);
const comments = (await api.spaces.listCommentsInSpace(space.id, {})).data;
check("spaces.listCommentsInSpace", comments.items.some((c) => c.id === comment.id && c.replies === 1), comments);

// Sites: create, add a section, publish, read the published profile.
const site = (await api.orgs.createSite(org, { title: "Public docs", spaces: [space.id] })).data;
check("orgs.createSite", site.object === "site" && site.siteSpaces === 1 && site.published === false, site);
const published = (await api.orgs.publishSite(org, site.id)).data;
check("orgs.publishSite", published.published === true && typeof published.urls.published === "string", published);
const structure = (await api.orgs.getSiteStructure(org, site.id, {})).data;
check("orgs.getSiteStructure", structure.type === "siteSpaces" && structure.structure.length === 1, structure);
const profile = (await api.orgs.getPublishedContentSite(org, site.id, {})).data;
check("orgs.getPublishedContentSite", profile.object === "published-content-site" && profile.site.id === site.id, profile);

// Git sync: import a repository (the job runner runs it), read the Git info,
// export to a new branch, remove the sync.
const gitSpace = (await api.orgs.createSpace(org, { title: "From git" })).data;
const gitImport = await api.spaces.importGitRepository(gitSpace.id, { url: process.env.FOLIO_GIT_REPO, ref: "refs/heads/main" });
check("spaces.importGitRepository", gitImport.status === 204, gitImport.status);
let gitInfo;
for (let i = 0; i < 100; i++) {
  gitInfo = (await api.spaces.getSpaceGitInfo(gitSpace.id)).data;
  if (gitInfo.operation && gitInfo.operation.state !== "queued" && gitInfo.operation.state !== "running") break;
  await new Promise((r) => setTimeout(r, 100));
}
check("spaces.getSpaceGitInfo", gitInfo.integration === "git-sync" && gitInfo.operation.state === "success" &&
  typeof gitInfo.updatedAt === "string", gitInfo);
const gitRevision = (await api.spaces.getCurrentRevision(gitSpace.id)).data;
check("a git import makes the current revision", gitRevision.git && gitRevision.git.oid === gitInfo.commit &&
  gitRevision.pages.length === 1, gitRevision);
const gitExport = await api.spaces.exportToGitRepository(gitSpace.id, { url: process.env.FOLIO_GIT_REPO, ref: "refs/heads/folio",
  commitMessage: "From the official client" });
check("spaces.exportToGitRepository", gitExport.status === 204, gitExport.status);
const gitRemoved = await api.spaces.deleteLegacyGitInstallation(gitSpace.id);
check("spaces.deleteLegacyGitInstallation", gitRemoved.status === 204, gitRemoved.status);
try {
  await api.spaces.getSpaceGitInfo(gitSpace.id);
  check("getSpaceGitInfo after removal throws", false, "no error");
} catch (err) {
  check("getSpaceGitInfo after removal throws GitBookAPIError 404", err instanceof GitBookAPIError && err.code === 404, err.code);
}

// Integrations: publish, read, install, configure, install on a space,
// issue a token, read the events, unpublish.
const integration = (await api.integrations.publishIntegration("client-check", { organization: org, title: "Client check",
  description: "From the official client", scopes: ["space:content:read"], script: "export default { async fetch() { return new Response(\"OK\"); } };", visibility: "public" })).data;
check("integrations.publishIntegration", integration.object === "integration" && integration.version === 1 &&
  integration.owner.id === org, integration);
const fetched = (await api.integrations.getIntegrationByName("client-check")).data;
check("integrations.getIntegrationByName", fetched.name === "client-check" && fetched.permissions.admin === true, fetched);
const listed = (await api.integrations.listIntegrations({ search: "client" })).data;
check("integrations.listIntegrations", listed.items.some((i) => i.name === "client-check"), listed);
const installation = (await api.integrations.installIntegration("client-check", { organization: org })).data;
check("integrations.installIntegration", installation.status === "active" && installation.target.organization === org, installation);
const configured = (await api.integrations.updateIntegrationInstallation("client-check", installation.id,
  { configuration: { channel: "docs" }, externalIds: ["ext-1"] })).data;
check("integrations.updateIntegrationInstallation", configured.configuration.channel === "docs", configured);
const installations = (await api.integrations.listIntegrationInstallations("client-check", { externalId: "ext-1" })).data;
check("integrations.listIntegrationInstallations", installations.items.length === 1, installations);
const onSpace = (await api.integrations.installIntegrationOnSpace("client-check", installation.id, { space: space.id })).data;
check("integrations.installIntegrationOnSpace", onSpace.installation === installation.id && onSpace.space === space.id, onSpace);
const installToken = (await api.integrations.createIntegrationInstallationToken("client-check", installation.id)).data;
check("integrations.createIntegrationInstallationToken", typeof installToken.token === "string" && installToken.token.length > 20, installToken);
const integrationEvents = (await api.integrations.listIntegrationEvents("client-check")).data;
check("integrations.listIntegrationEvents", integrationEvents.items.length >= 3 &&
  integrationEvents.items.every((e) => e.integrationId === "client-check"), integrationEvents);
const unpublished = await api.integrations.unpublishIntegration("client-check");
check("integrations.unpublishIntegration", unpublished.status === 204, unpublished.status);

try {
  await api.spaces.getSpaceById("nope");
  check("spaces.getSpaceById of an unknown space throws", false, "no error");
} catch (err) {
  check("an unknown space throws GitBookAPIError 404", err instanceof GitBookAPIError && err.code === 404 &&
    err.errorMessage.length > 0, { name: err.name, code: err.code, message: err.errorMessage });
}

try {
  await api.spaces.searchSpaceContent(space.id, { query: "" });
  check("an empty query throws", false, "no error");
} catch (err) {
  check("an empty query throws GitBookAPIError 400", err instanceof GitBookAPIError && err.code === 400, {
    code: err.code, message: err.errorMessage });
}

console.log(`${checks} checks passed`);
