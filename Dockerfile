# tfcc serve in a container (Debian 12 slim, non-root). The deploy/ manifests refer to this image.
#   docker build -t tfcc:0.1.0 .
#   docker run --rm -p 8000:8000 -v "$PWD/models:/models:ro" tfcc:0.1.0
# serves every /models/<model>/<version>/model.tflite over KServe v2 and TF Serving REST.
# Stage 1 builds tfcc and its Debian package; stage 2 installs that package (apt pulls in the
# runtime libraries it depends on) and nothing else.
FROM debian:12-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends build-essential cmake ninja-build pkg-config file \
      dpkg-dev libjpeg62-turbo-dev libpng-dev libmicrohttpd-dev libjansson-dev libyaml-dev libssl-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY CMakeLists.txt ./
COPY cmake cmake
COPY include include
COPY src src
COPY server server
COPY tools tools
COPY packaging packaging
RUN cmake -S . -B /build -G Ninja -DCMAKE_BUILD_TYPE=Release -DTFCC_BUILD_TESTS=OFF -DTFCC_BUILD_BENCH=OFF \
 && cmake --build /build \
 && cd /build && cpack -G DEB

FROM debian:12-slim
COPY --from=build /build/tfcc_*.deb /tmp/
RUN apt-get update \
 && apt-get install -y --no-install-recommends /tmp/tfcc_*.deb \
 && rm -rf /var/lib/apt/lists/* /tmp/tfcc_*.deb \
 && useradd --system --uid 10001 --no-create-home --shell /usr/sbin/nologin tfcc \
 && mkdir -p /models
COPY deploy/kserve/tfcc-kserve /usr/local/bin/tfcc-kserve
USER 10001
EXPOSE 8000
# ready = every model has a loaded version (KServe v2 /v2/health/ready); slim has no curl, so
# bash's /dev/tcp asks (the port is TFCC_HEALTH_PORT, default 8000).
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${TFCC_HEALTH_PORT:-8000} && printf 'GET /v2/health/ready HTTP/1.0\\r\\n\\r\\n' >&3 && head -n1 <&3 | grep -q ' 200 '"]
ENTRYPOINT ["tfcc"]
CMD ["serve", "--model-repository", "/models", "--host", "0.0.0.0", "--port", "8000"]
