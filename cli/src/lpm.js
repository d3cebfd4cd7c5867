// @ts-check
// The one place the command line names the package it is built on: lpm-client-bulk, the build of
// lpm-client with the bulk engines (importUsers, grantCourses, fileJournal); everything else
// imports from here.
export * from 'lpm-client-bulk';
