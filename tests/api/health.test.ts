import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.stop());

describe('health and OpenAPI', () => {
  it('reports ok when the database answers', async () => {
    const res = await new ApiClient(server.baseUrl).get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('publishes an OpenAPI 3.1 document of every route, built from the shared schemas', async () => {
    const res = await new ApiClient(server.baseUrl).get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/auth/signin',
        '/api/v1/auth/register',
        '/api/v1/auth/adminsignin',
        '/api/v1/health',
      ]),
    );
    const register =
      res.body.paths['/api/v1/auth/register'].post.requestBody.content['application/json'].schema;
    expect(register.required).toEqual(
      expect.arrayContaining(['fullname', 'username', 'email', 'phone', 'password']),
    );
  });

  it('answers an unknown API path with a JSON 404', async () => {
    const res = await new ApiClient(server.baseUrl).get('/no-such-call');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Not found' });
  });
});
