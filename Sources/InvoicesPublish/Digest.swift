internal import COpenSSLCrypto
public import Foundation

/// SHA-256 and HMAC-SHA256, computed by the system's libcrypto (OpenSSL).
public enum Digest {
    /// The SHA-256 of `data`.
    public static func sha256(_ data: Data) -> Data {
        var output = Data(count: Int(SHA256_DIGEST_LENGTH))
        data.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { out in
                _ = SHA256(input.bindMemory(to: UInt8.self).baseAddress, input.count, out.bindMemory(to: UInt8.self).baseAddress)
            }
        }
        return output
    }

    /// The HMAC-SHA256 of `message` under `key` (RFC 2104).
    public static func hmacSHA256(key: Data, message: Data) -> Data {
        var output = Data(count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        key.withUnsafeBytes { key in
            message.withUnsafeBytes { message in
                output.withUnsafeMutableBytes { out in
                    _ = HMAC(
                        EVP_sha256(), key.baseAddress, Int32(key.count), message.bindMemory(to: UInt8.self).baseAddress,
                        message.count, out.bindMemory(to: UInt8.self).baseAddress, &length)
                }
            }
        }
        return output.prefix(Int(length))
    }

    /// `data` as lowercase hexadecimal.
    public static func hex(_ data: Data) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(data.count * 2)
        for byte in data {
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `data` in lowercase RFC 4648 base32 without padding (letters a-z and digits 2-7).
    public static func base32(_ data: Data) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567".utf8)
        var result: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for byte in data {
            buffer = (buffer << 8) | UInt32(byte)
            bits += 8
            while bits >= 5 {
                result.append(alphabet[Int((buffer >> UInt32(bits - 5)) & 31)])
                bits -= 5
            }
        }
        if bits > 0 { result.append(alphabet[Int((buffer << UInt32(5 - bits)) & 31)]) }
        return String(decoding: result, as: UTF8.self)
    }
}
