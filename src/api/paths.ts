/** Where the REST API lives on the server: every API route's path starts with this. */
export const API_PREFIX = '/api/v1';
