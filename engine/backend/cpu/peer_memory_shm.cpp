// POSIX shared memory for backend/peer_memory.hpp: an object named
// /flowlua-<pid>-<n>, mapped by its creator and by the neighbour that opens it; the
// creator unlinks the name once the neighbour has opened it, so that a run leaves
// nothing in /dev/shm (only a process killed between the two leaves its object).
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "backend/peer_memory.hpp"

namespace flowlua {

namespace {
std::string name_of(const PeerHandle& h) {
  return std::string(reinterpret_cast<const char*>(h.bytes), strnlen(reinterpret_cast<const char*>(h.bytes), sizeof h.bytes));
}
void* map(int fd, std::size_t bytes, std::string& why) {
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED) {
    why = std::string("mmap: ") + std::strerror(errno);
    return nullptr;
  }
  return p;
}
}  // namespace

void* shm_create(std::size_t bytes, PeerHandle& h, std::string& why) {
  static std::atomic<unsigned> counter{0};
  char name[sizeof h.bytes];
  std::snprintf(name, sizeof name, "/flowlua-%ld-%u", long(getpid()), counter++);
  const int fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
  if (fd < 0) {
    why = std::string("shm_open ") + name + ": " + std::strerror(errno);
    return nullptr;
  }
  void* p = nullptr;
  if (ftruncate(fd, off_t(bytes)) != 0) why = std::string("ftruncate ") + name + ": " + std::strerror(errno);
  else p = map(fd, bytes, why);
  ::close(fd);
  if (!p) {
    shm_unlink(name);
    return nullptr;
  }
  std::memset(h.bytes, 0, sizeof h.bytes);
  std::memcpy(h.bytes, name, std::strlen(name));
  return p;
}

void* shm_open_peer(const PeerHandle& h, std::size_t bytes, std::string& why) {
  const std::string name = name_of(h);
  const int fd = shm_open(name.c_str(), O_RDWR, 0);
  if (fd < 0) {
    why = "shm_open " + name + ": " + std::strerror(errno);
    return nullptr;
  }
  void* p = map(fd, bytes, why);
  ::close(fd);
  return p;
}

void shm_unmap(void* p, std::size_t bytes) {
  if (p) munmap(p, bytes);
}

void shm_forget(const PeerHandle& h) { shm_unlink(name_of(h).c_str()); }

}  // namespace flowlua
