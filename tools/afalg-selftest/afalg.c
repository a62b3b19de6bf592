// SPDX-License-Identifier: GPL-2.0
/* afalg.c: the self-test's ways into AF_ALG: the hash input paths and cipher ops (algsock.h below). */
#include <errno.h>
#include <fcntl.h>
#include <linux/if_alg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "afalg.h"

#ifndef SOL_ALG
#define SOL_ALG 279
#endif

#define WHY(...) do { if (why) snprintf(why, whylen, __VA_ARGS__); } while (0)

const char *hash_path_name(enum hash_path p)
{
	static const char *const names[PATH_NR] = {
		[PATH_ONESHOT] = "one-shot send",
		[PATH_CHUNKED] = "MSG_MORE chunks",
		[PATH_SPLICE] = "vmsplice+splice",
		[PATH_CLONE] = "accept() clone mid-stream",
	};

	return p < PATH_NR ? names[p] : "?";
}

size_t chunk_size(size_t idx, size_t total)
{
	static const size_t small[] = { 1, 3, 7 };
	static const size_t big[] = { 1, 3, 7, 4093, 8191 };

	if (total <= 4096)
		return small[idx % 3];
	return big[idx % 5];
}

size_t clone_split(size_t len)
{
	return len / 2;
}

/* Send [off, off+len) of buf in chunk_size() pieces, MSG_MORE on all but maybe the last. */
static int send_chunked(int opfd, const uint8_t *buf, size_t len, bool more,
			char *why, size_t whylen)
{
	size_t off = 0, idx = 0;

	if (!len) {
		ssize_t n = afalg_send(opfd, buf, 0, more);

		if (n < 0)
			WHY("sendmsg(0 bytes): %s", strerror((int)-n));
		return n < 0 ? (int)n : 0;
	}
	while (off < len) {
		size_t c = chunk_size(idx, len);
		ssize_t n;

		if (c > len - off)
			c = len - off;
		n = afalg_send(opfd, buf + off, c, off + c < len || more);
		if (n < 0) {
			WHY("sendmsg chunk %zu (offset %zu, %zu bytes): %s", idx, off, c,
			    strerror((int)-n));
			return (int)n;
		}
		if ((size_t)n != c) {
			WHY("sendmsg chunk %zu took %zd of %zu bytes", idx, n, c);
			return -EIO;
		}
		off += c;
		idx++;
	}
	return 0;
}

static int send_whole(int opfd, const uint8_t *buf, size_t len, bool more,
		      char *why, size_t whylen)
{
	ssize_t n = afalg_send(opfd, buf, len, more);

	if (n < 0) {
		WHY("sendmsg(%zu bytes%s): %s", len, more ? ", MSG_MORE" : "", strerror((int)-n));
		return (int)n;
	}
	if ((size_t)n != len) {
		/* algif_hash has then lost its place; the digest would be wrong. */
		WHY("sendmsg took %zd of %zu bytes", n, len);
		return -EIO;
	}
	return 0;
}

int afalg_splice_in(int opfd, const uint8_t *buf, size_t len, bool more,
		    char *why, size_t whylen)
{
	size_t off = 0;
	int p[2], err = 0;

	if (!len)
		return 0;
	if (pipe2(p, O_CLOEXEC)) {
		err = -errno;
		WHY("pipe2: %s", strerror(errno));
		return err;
	}
	while (off < len) {
		struct iovec iov = { .iov_base = (void *)(buf + off), .iov_len = len - off };
		ssize_t in = vmsplice(p[1], &iov, 1, 0);
		size_t left;

		/*
		 * The pipe is empty here, so vmsplice takes what fits (16 pages
		 * by default) and returns without blocking.
		 */
		if (in <= 0) {
			err = in < 0 ? -errno : -EIO;
			WHY("vmsplice at offset %zu: %s", off, in < 0 ? strerror(errno) : "took 0 bytes");
			goto close_pipe;
		}
		for (left = (size_t)in; left;) {
			unsigned int fl = off + left < len || more ? SPLICE_F_MORE : 0;
			ssize_t out = splice(p[0], NULL, opfd, NULL, left, fl);

			/* A short splice is legal: loop on it. */
			if (out <= 0) {
				err = out < 0 ? -errno : -EIO;
				WHY("splice into the op socket at offset %zu (%zu bytes): %s", off,
				    left, out < 0 ? strerror(errno) : "moved 0 bytes");
				goto close_pipe;
			}
			left -= (size_t)out;
			off += (size_t)out;
		}
	}
close_pipe:
	close(p[0]);
	close(p[1]);
	return err;
}

static int recv_digest(int opfd, uint8_t *md, ssize_t *got, const char *what,
		       char *why, size_t whylen)
{
	*got = afalg_recv(opfd, md, 64, NULL);
	if (*got < 0) {
		WHY("recvmsg (%s): %s", what, strerror((int)-*got));
		return (int)*got;
	}
	return 0;
}

int afalg_hash(int tfmfd, enum hash_path path, const uint8_t *msg, size_t len,
	       struct hash_result *res, char *why, size_t whylen)
{
	int opfd, clone = -1, err;
	size_t half;

	memset(res, 0, sizeof(*res));
	res->clone_len = -1;
	opfd = afalg_accept(tfmfd);
	if (opfd < 0) {
		WHY("accept: %s", strerror(-opfd));
		return opfd;
	}
	switch (path) {
	case PATH_ONESHOT:
		err = send_whole(opfd, msg, len, false, why, whylen);
		break;
	case PATH_CHUNKED:
		err = send_chunked(opfd, msg, len, false, why, whylen);
		break;
	case PATH_SPLICE:
		err = afalg_splice_in(opfd, msg, len, false, why, whylen);
		break;
	case PATH_CLONE:
		half = clone_split(len);
		err = send_whole(opfd, msg, half, true, why, whylen);
		if (err)
			break;
		clone = afalg_accept(opfd);
		if (clone < 0) {
			err = clone;
			WHY("accept on the op socket after %zu bytes: %s", half, strerror(-err));
			break;
		}
		/* Finish the original first: the clone must not share its state. */
		err = send_whole(opfd, msg + half, len - half, false, why, whylen);
		if (!err)
			err = recv_digest(opfd, res->md, &res->len, "original", why, whylen);
		if (!err)
			err = send_whole(clone, msg + half, len - half, false, why, whylen);
		if (!err)
			err = recv_digest(clone, res->clone_md, &res->clone_len, "clone",
					  why, whylen);
		goto close_op;
	default:
		err = -EINVAL;
		break;
	}
	if (!err)
		err = recv_digest(opfd, res->md, &res->len, hash_path_name(path), why, whylen);
close_op:
	if (clone >= 0)
		close(clone);
	close(opfd);
	return err;
}

int afalg_cipher(int tfmfd, const struct cipher_op *op, char *why, size_t whylen)
{
	union {
		char buf[CMSG_SPACE(sizeof(uint32_t)) * 2 +
			 CMSG_SPACE(sizeof(struct af_alg_iv) + 32)];
		struct cmsghdr align;
	} cbuf;
	size_t first = op->chunked ? chunk_size(0, op->inlen) : op->inlen;
	struct iovec iov;
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf.buf };
	struct cmsghdr *c;
	struct af_alg_iv *aiv;
	ssize_t n;
	int opfd, err = 0;

	if (op->ivlen > 32)
		return -EINVAL;
	if (first > op->inlen)
		first = op->inlen;
	memset(&cbuf, 0, sizeof(cbuf));
	msg.msg_controllen = CMSG_SPACE(sizeof(uint32_t)) +
			     CMSG_SPACE(sizeof(struct af_alg_iv) + op->ivlen) +
			     (op->aead ? CMSG_SPACE(sizeof(uint32_t)) : 0);
	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_OP;
	c->cmsg_len = CMSG_LEN(sizeof(uint32_t));
	*(uint32_t *)CMSG_DATA(c) = op->encrypt ? ALG_OP_ENCRYPT : ALG_OP_DECRYPT;
	c = CMSG_NXTHDR(&msg, c);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_IV;
	c->cmsg_len = CMSG_LEN(sizeof(struct af_alg_iv) + op->ivlen);
	aiv = (struct af_alg_iv *)CMSG_DATA(c);
	aiv->ivlen = (uint32_t)op->ivlen;
	memcpy(aiv->iv, op->iv, op->ivlen);
	if (op->aead) {
		c = CMSG_NXTHDR(&msg, c);
		c->cmsg_level = SOL_ALG;
		c->cmsg_type = ALG_SET_AEAD_ASSOCLEN;
		c->cmsg_len = CMSG_LEN(sizeof(uint32_t));
		*(uint32_t *)CMSG_DATA(c) = (uint32_t)op->assoclen;
	}

	opfd = afalg_accept(tfmfd);
	if (opfd < 0) {
		WHY("accept: %s", strerror(-opfd));
		return opfd;
	}
	iov.iov_base = (void *)op->in;
	iov.iov_len = first;
	n = sendmsg(opfd, &msg, first < op->inlen ? MSG_MORE : 0);
	if (n < 0 || (size_t)n != first) {
		err = n < 0 ? -errno : -EIO;
		WHY("sendmsg with op/IV%s (%zu bytes): %s", op->aead ? "/assoclen" : "", first,
		    n < 0 ? strerror(errno) : "short");
		goto close_op;
	}
	if (first < op->inlen) {
		err = send_chunked(opfd, op->in + first, op->inlen - first, false, why, whylen);
		if (err)
			goto close_op;
	}
	n = afalg_recv(opfd, op->out, op->outlen, NULL);
	if (n < 0) {
		err = (int)n;
		WHY("recvmsg(%zu bytes): %s", op->outlen, strerror((int)-n));
	} else if ((size_t)n != op->outlen) {
		err = -EIO;
		WHY("recvmsg returned %zd bytes, expected %zu", n, op->outlen);
	}
close_op:
	close(opfd);
	return err;
}
