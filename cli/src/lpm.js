// The one place the command line names the package it is built on: everything else imports from here.
export * from 'lpm-client';
