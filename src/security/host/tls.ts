/**
 * The harness's HTTPS test server: a self-signed certificate (EC P-256, valid until 2126) for
 * the names the harness resolver maps to the allowed server (api.example.com, attacker.example,
 * public.attacker.example, 127.0.0.2). Only the harness guard trusts it (EgressGuardOptions.ca);
 * the key protects nothing. Made with:
 *   openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 36500
 *     -subj /CN=api.example.com
 *     -addext subjectAltName=DNS:api.example.com,DNS:attacker.example,DNS:public.attacker.example,IP:127.0.0.2
 */
export const HARNESS_CERT = `
-----BEGIN CERTIFICATE-----
MIIB2jCCAYCgAwIBAgIUZMhO2HJrn8Ed80Xokoj4Ts3mlMQwCgYIKoZIzj0EAwIw
GjEYMBYGA1UEAwwPYXBpLmV4YW1wbGUuY29tMCAXDTI2MTEyNTE2MTc1NVoYDzIx
MjYxMTAxMTYxNzU1WjAaMRgwFgYDVQQDDA9hcGkuZXhhbXBsZS5jb20wWTATBgcq
hkjOPQIBBggqhkjOPQMBBwNCAAQ/ItyLAXTA/N0HrcjHIeR1iQw1xjJi0L3wCYV4
NezJhtSrkyLOds4HK09w7eWbS3i2kSUcCEcegD5Izbra9B4wo4GhMIGeMB0GA1Ud
DgQWBBTRdtf09vvInv4YRRXs8cl+ruIBoTAfBgNVHSMEGDAWgBTRdtf09vvInv4Y
RRXs8cl+ruIBoTAPBgNVHRMBAf8EBTADAQH/MEsGA1UdEQREMEKCD2FwaS5leGFt
cGxlLmNvbYIQYXR0YWNrZXIuZXhhbXBsZYIXcHVibGljLmF0dGFja2VyLmV4YW1w
bGWHBH8AAAIwCgYIKoZIzj0EAwIDSAAwRQIgeZaWELTqL+LGBwTvjkz59C/5SqkB
HGCP5MqQizhLwjACIQCmeOfIJwSiMPppkhQvDMUimQVir43K5CDzXcZreee71w==
-----END CERTIFICATE-----
`;

export const HARNESS_KEY = `
-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgtBqlNcJngnPXKF63
eDvLkTLwyUUPgUiIwIEjEccy61WhRANCAAQ/ItyLAXTA/N0HrcjHIeR1iQw1xjJi
0L3wCYV4NezJhtSrkyLOds4HK09w7eWbS3i2kSUcCEcegD5Izbra9B4w
-----END PRIVATE KEY-----
`;
