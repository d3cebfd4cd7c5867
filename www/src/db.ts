// The dashboard's IndexedDB database, opened in one place: the bulk screen's job record
// ("imports") and the accounts read for the name search and the overview ("accounts").
import { openDB } from "idb";

export const db = openDB("lpm-dashboard", 2, {
  upgrade(d) {
    if (!d.objectStoreNames.contains("imports")) d.createObjectStore("imports");
    if (!d.objectStoreNames.contains("accounts")) d.createObjectStore("accounts");
  },
});
