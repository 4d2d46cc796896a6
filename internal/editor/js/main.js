// The bundle's entry point: the build names it FolioEditor, so the host
// page calls FolioEditor.mount(element, options).
export { mount } from "./editor.js";
export const version = "1";
