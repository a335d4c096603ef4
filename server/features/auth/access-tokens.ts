import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';

/** The only algorithm we sign with and the only one we accept: no `alg` confusion. */
const ALGORITHM = 'HS256';
const TOKEN_TYPE = 'at+jwt';

export interface AccessTokenClaims {
  userId: string;
  tenantId: string;
  jti: string;
  expiresAt: Date;
}

export interface AccessTokenSettings {
  secret: Uint8Array<ArrayBuffer>;
  issuer: string;
  audience: string;
}

/**
 * Signs a console access token (RFC 9068 profile: `typ: at+jwt`).
 *
 * @example
 * const jwt = await signAccessToken(settings, { userId, tenantId, jti, expiresAt }, now);
 */
export async function signAccessToken(
  settings: AccessTokenSettings,
  claims: AccessTokenClaims,
  now: Date,
): Promise<string> {
  return new SignJWT({ tid: claims.tenantId })
    .setProtectedHeader({ alg: ALGORITHM, typ: TOKEN_TYPE })
    .setIssuer(settings.issuer)
    .setAudience(settings.audience)
    .setSubject(claims.userId)
    .setJti(claims.jti)
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .setExpirationTime(Math.floor(claims.expiresAt.getTime() / 1000))
    .sign(settings.secret);
}

export type AccessTokenFailure = 'expired' | 'invalid';

export async function verifyAccessToken(
  settings: AccessTokenSettings,
  token: string,
  now: Date,
): Promise<AccessTokenClaims | AccessTokenFailure> {
  try {
    const { payload } = await jwtVerify(token, settings.secret, {
      algorithms: [ALGORITHM],
      typ: TOKEN_TYPE,
      issuer: settings.issuer,
      audience: settings.audience,
      currentDate: now,
      requiredClaims: ['sub', 'jti', 'exp', 'tid'],
    });
    if (
      typeof payload.sub !== 'string' ||
      typeof payload.jti !== 'string' ||
      typeof payload['tid'] !== 'string'
    ) {
      return 'invalid';
    }
    return {
      userId: payload.sub,
      tenantId: payload['tid'],
      jti: payload.jti,
      expiresAt: new Date((payload.exp ?? 0) * 1000),
    };
  } catch (error) {
    return error instanceof joseErrors.JWTExpired ? 'expired' : 'invalid';
  }
}
